// Golden tests: our monitor records against the records the real Claude Code 2.1.328 wrote for its own
// Monitor tool (fixtures/monitor/, captured by test/monitor/capture.ts), and the fixture against a fresh
// capture from the real binary, so a change in the CLI shows up here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../lib/events.js';
import { ClaudeRecordMapper, type ClaudeRecord } from '../../lib/agents/claude-code-cli/records.js';
import { FIXTURES } from '../support/run.js';
import { CAPTURE_SESSION, CAPTURED, NEUTRAL_CWD, captureMonitorRecords } from './capture.js';

const fixture: Record<string, any>[] = readFileSync(join(FIXTURES, 'monitor', 'claude-monitor-records.jsonl'), 'utf8')
  .split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

const taskIdOf = (xml: string) => /<task-id>(.*)<\/task-id>/.exec(xml)![1]!;
const attachments = fixture.filter((r) => r.type === 'attachment');
const removes = fixture.filter((r) => r.type === 'queue-operation' && r.operation === 'remove');
const enqueues = fixture.filter((r) => r.type === 'queue-operation' && r.operation === 'enqueue');

/** The captured attachment whose notification matches. */
function captured(match: (xml: string) => boolean): Record<string, any> {
  const found = attachments.find((r) => match(r.attachment.prompt));
  if (!found) throw new Error('no such notification in the fixture');
  return found;
}

/** The CLI's terminal notification without the lines naming its tool call and output file. */
const withoutToolLines = (xml: string) => xml.split('\n').filter((l) => !/^<(tool-use-id|output-file)>/.test(l)).join('\n');

/**
 * Our records for the events, written with the captured record's uuids, parent and timestamp, so the
 * whole record can be compared with the captured one.
 */
function ours(events: GenericEvent[], like: Record<string, any>): ClaudeRecord[] {
  const uuids = [like.attachment.source_uuid, like.attachment.delivery_id, like.uuid];
  const m = new ClaudeRecordMapper({
    sessionId: CAPTURE_SESSION, cwd: NEUTRAL_CWD, gitBranch: like.gitBranch,
    newUuid: () => uuids.shift() ?? 'spare-uuid',
  });
  const out: ClaudeRecord[] = [];
  events.forEach((event, index) => {
    if (index === events.length - 1) m.parentUuid = like.parentUuid;
    out.push(...m.map(event).records);
  });
  return out.slice(-3);
}

const linesTask = taskIdOf(captured((x) => x.includes(`Monitor event: "build &amp;`)).attachment.prompt);
const lineEvent = (text: string, timestamp: string): GenericEvent =>
  ({ type: 'monitor_event', event: text, description: CAPTURED.lines.description, task_id: linesTask, timestamp });

describe('monitor records against the real CLI (fixtures/monitor)', () => {
  test('the fixture holds every notification the scenario makes, with the tool calls behind them', () => {
    expect(attachments).toHaveLength(5);
    expect(enqueues).toHaveLength(5);
    expect(removes).toHaveLength(5);
    expect(fixture.filter((r) => r.type === 'assistant')).toHaveLength(3);
  });

  test('a per-event attachment is the captured one, field for field and in the same order', () => {
    const real = captured((x) => x.includes(`<event>${'ok &amp; &lt;done&gt; "quoted"\ttab'}</event>`));
    const [, attachment] = ours([lineEvent(CAPTURED.lines.events[0], real.timestamp)], real);
    // Claude Code -p says where it ran (`sdk-cli`); a transcript written here says `cli`, as the interactive CLI.
    const expected = { ...real, entrypoint: 'cli', attachment: { ...real.attachment } };
    expect(attachment).toEqual(expected);
    expect(Object.keys(attachment!)).toEqual(Object.keys(real));
    expect(Object.keys(attachment!.attachment as object)).toEqual(Object.keys(real.attachment));
  });

  test('the second line is its own event with the same task id, as the CLI delivered it', () => {
    const real = captured((x) => x.includes('<event>second line</event>'));
    const [, attachment] = ours([lineEvent(CAPTURED.lines.events[1], real.timestamp)], real);
    expect((attachment!.attachment as Record<string, unknown>).prompt).toBe(real.attachment.prompt);
    expect(attachment!.rendered).toEqual(real.rendered);
    expect(attachment!.renderedInHumanTurn).toEqual(real.renderedInHumanTurn);
  });

  test('the queue operations are the captured ones, field for field and in the same order', () => {
    const real = captured((x) => x.includes('<event>second line</event>'));
    const realEnqueue = enqueues.find((r) => r.content === real.attachment.prompt)!;
    const realRemove = removes.find((r) => r.commandUuid === real.attachment.source_uuid)!;
    const [enqueue, , remove] = ours([lineEvent(CAPTURED.lines.events[1], real.timestamp)], real);
    // Claude Code enqueues when the line arrives and removes when the turn absorbs it; we write both at once.
    expect(enqueue).toEqual({ ...realEnqueue, timestamp: real.timestamp });
    expect(remove).toEqual({ ...realRemove, timestamp: real.timestamp });
    expect(Object.keys(enqueue!)).toEqual(Object.keys(realEnqueue));
    expect(Object.keys(remove!)).toEqual(Object.keys(realRemove));
  });

  test('the real remove names the attachment it absorbed, as ours does', () => {
    for (const real of attachments) {
      const remove = removes.find((r) => r.content === real.attachment.prompt);
      expect(remove).toMatchObject({ commandUuid: real.attachment.source_uuid, deliveryId: real.attachment.delivery_id, reason: 'absorbed_mid_turn' });
    }
  });

  test('a command that printed lines and exited 0: our end notification is the CLI\'s without its tool lines', () => {
    const real = captured((x) => x.includes('stream ended'));
    const records = ours([
      lineEvent(CAPTURED.lines.events[0], real.timestamp),
      { type: 'monitor_end', exit_code: 0, description: CAPTURED.lines.description, task_id: linesTask, timestamp: real.timestamp },
    ], real);
    expect((records[1]!.attachment as Record<string, unknown>).prompt).toBe(withoutToolLines(real.attachment.prompt));
  });

  test('a command that printed nothing and exited 3: "script failed (exit 3)"', () => {
    const real = captured((x) => x.includes('<status>failed</status>'));
    const [, attachment] = ours([
      { type: 'monitor_end', exit_code: 3, description: CAPTURED.failing.description, task_id: taskIdOf(real.attachment.prompt), timestamp: real.timestamp },
    ], real);
    expect((attachment!.attachment as Record<string, unknown>).prompt).toBe(withoutToolLines(real.attachment.prompt));
  });

  test('a command that printed nothing and exited 0: "ended without producing output (exit 0)"', () => {
    const real = captured((x) => x.includes('without producing output'));
    const [, attachment] = ours([
      { type: 'monitor_end', exit_code: 0, description: CAPTURED.quiet.description, task_id: taskIdOf(real.attachment.prompt), timestamp: real.timestamp },
    ], real);
    expect((attachment!.attachment as Record<string, unknown>).prompt).toBe(withoutToolLines(real.attachment.prompt));
  });

  test("the CLI's task ids have the shape ours are drawn in", () => {
    for (const real of attachments) expect(taskIdOf(real.attachment.prompt)).toMatch(/^b[a-z0-9]{8}$/);
  });
});

describe('the fixture against the real binary', () => {
  let fresh: Record<string, any>[];
  beforeAll(async () => {
    fresh = (await captureMonitorRecords()).records;
  }, 120_000);

  /** What must not change between captures: the notification texts, with ids and paths made neutral. */
  const shape = (records: Record<string, any>[]) => records
    .filter((r) => r.type === 'attachment')
    .map((r) => {
      const text = JSON.stringify({ prompt: r.attachment.prompt, rendered: r.rendered, renderedInHumanTurn: r.renderedInHumanTurn, keys: Object.keys(r) });
      return text.replace(/b[a-z0-9]{8}/g, '<task>').replace(/claude-\d+\//g, 'claude-<uid>/');
    })
    .sort();

  test('a fresh capture from the real claude writes the notifications the fixture holds', () => {
    expect(shape(fresh)).toEqual(shape(fixture));
  });
});
