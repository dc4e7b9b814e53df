// Unit tests of the Claude Code monitor records: the triple per event, escaping, matching ids, the chain,
// the terminal notifications and the watch-notice note. Literal events in, records out.
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../lib/events.js';
import type { ClaudeRecord } from '../../lib/agents/claude-code-cli/records.js';
import { mapEvents } from '../support/claude-mapper.js';
import { endNotification, escapeXml, eventNotification, PRE, PRE_HUMAN_TURN, truncateSummary } from '../../lib/monitor/notification.js';

const T = '2026-11-29T10:00:00.000Z';

const mapAll = (events: GenericEvent[]): ClaudeRecord[] => mapEvents(events).records;

const event = (text: string, extra: Partial<GenericEvent> = {}): GenericEvent =>
  ({ type: 'monitor_event', event: text, description: 'tail', task_id: 'btask0001', timestamp: T, ...extra }) as GenericEvent;
const end = (exitCode: number, extra: Record<string, unknown> = {}): GenericEvent =>
  ({ type: 'monitor_end', exit_code: exitCode, description: 'tail', task_id: 'btask0001', timestamp: T, ...extra }) as GenericEvent;
const attachment = (r: ClaudeRecord) => r.attachment as Record<string, any>;

describe('monitor event records', () => {
  test('one event writes an enqueue, a queued_command attachment and a remove, in that order', () => {
    const records = mapAll([event('line')]);
    expect(records.map((r) => [r.type, r.operation ?? attachment(r).type])).toEqual([
      ['queue-operation', 'enqueue'], ['attachment', 'queued_command'], ['queue-operation', 'remove'],
    ]);
  });

  test('the notification is the task-notification XML with the task id, summary and event', () => {
    const [enqueue, att, remove] = mapAll([event('build ok')]);
    const xml = '<task-notification>\n<task-id>btask0001</task-id>\n<summary>Monitor event: "tail"</summary>\n<event>build ok</event>\n</task-notification>';
    expect(enqueue!.content).toBe(xml);
    expect(attachment(att!).prompt).toBe(xml);
    expect(remove!.content).toBe(xml);
  });

  test('the attachment renders the notification under both preambles, as a system reminder', () => {
    const [, att] = mapAll([event('x')]);
    const xml = attachment(att!).prompt as string;
    expect(att!.rendered).toEqual([{ content: `<system-reminder>\n${PRE}\n\n${xml}\n</system-reminder>` }]);
    expect(att!.renderedInHumanTurn).toEqual([{ content: `<system-reminder>\n${PRE_HUMAN_TURN}\n\n${xml}\n</system-reminder>` }]);
    expect(att!.renderedRole).toBe('system');
  });

  test('the attachment carries the queued-command fields Claude Code writes', () => {
    const [, att] = mapAll([event('x')]);
    expect(attachment(att!)).toMatchObject({
      commandMode: 'task-notification', origin: { kind: 'task-notification', producer: 'session-task' }, timestamp: T,
    });
  });

  test('event text and description escape &, < and > and leave quotes alone', () => {
    const [, att] = mapAll([event('a & b <c> "d" \'e\'', { description: 'x & <y> "z"' })]);
    expect(attachment(att!).prompt).toContain('<summary>Monitor event: "x &amp; &lt;y&gt; "z""</summary>');
    expect(attachment(att!).prompt).toContain('<event>a &amp; b &lt;c&gt; "d" \'e\'</event>');
  });

  test('an ampersand is escaped before the angle brackets, so escapes are not escaped twice', () => {
    expect(escapeXml('&lt; <')).toBe('&amp;lt; &lt;');
  });

  test('newlines and tabs inside an event stay literal', () => {
    const [, att] = mapAll([event('one\ntwo\tthree')]);
    expect(attachment(att!).prompt).toContain('<event>one\ntwo\tthree</event>');
  });

  test('a task id given in the event is escaped like the rest', () => {
    const [, att] = mapAll([event('x', { task_id: 'a<b' })]);
    expect(attachment(att!).prompt).toContain('<task-id>a&lt;b</task-id>');
  });

  test("the attachment's source_uuid and delivery_id are the remove's commandUuid and deliveryId", () => {
    const [, att, remove] = mapAll([event('x')]);
    expect(remove).toMatchObject({ reason: 'absorbed_mid_turn', commandUuid: attachment(att!).source_uuid, deliveryId: attachment(att!).delivery_id });
    expect(attachment(att!).source_uuid).not.toBe(attachment(att!).delivery_id);
  });

  test('queue operations carry no uuid or parentUuid, and only the attachment advances the chain', () => {
    const records = mapAll([
      { type: 'user', text: 'hi', timestamp: T },
      event('x'),
      { type: 'assistant', text: 'seen', timestamp: T },
    ]);
    const [user, enqueue, att, remove, assistant] = records;
    for (const op of [enqueue!, remove!]) {
      expect(op).not.toHaveProperty('uuid');
      expect(op).not.toHaveProperty('parentUuid');
    }
    expect(att!.parentUuid).toBe(user!.uuid);
    expect(assistant!.parentUuid).toBe(att!.uuid);
  });

  test('the attachment keeps the field order Claude Code writes', () => {
    const [, att] = mapAll([event('x')]);
    expect(Object.keys(att!)).toEqual([
      'parentUuid', 'isSidechain', 'attachment', 'type', 'uuid', 'timestamp', 'rendered', 'renderedInHumanTurn',
      'renderedRole', 'userType', 'entrypoint', 'cwd', 'sessionId', 'version',
    ]);
  });

  test('events without a task id share one generated id per description, in Claude Code form', () => {
    const records = mapAll([event('a', { task_id: undefined }), event('b', { task_id: undefined }), event('c', { task_id: undefined, description: 'other' })]);
    const ids = records.filter((r) => r.type === 'attachment').map((r) => /<task-id>(.*)<\/task-id>/.exec(attachment(r).prompt)![1]);
    expect(ids[0]).toMatch(/^b[a-z0-9]{8}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  test('an event with no description is called "monitor"', () => {
    const [, att] = mapAll([event('x', { description: undefined })]);
    expect(attachment(att!).prompt).toContain('<summary>Monitor event: "monitor"</summary>');
  });

  test("a watch notice's note takes the push-notification sentence's place: its own line after </event>", () => {
    const [, att] = mapAll([event('ping', { note: 'Nothing to do: reply exactly NO_REPLY & <stop>' })]);
    expect(attachment(att!).prompt).toBe([
      '<task-notification>', '<task-id>btask0001</task-id>', '<summary>Monitor event: "tail"</summary>',
      '<event>ping</event>', 'Nothing to do: reply exactly NO_REPLY &amp; &lt;stop&gt;', '</task-notification>',
    ].join('\n'));
  });

  test('a provenance marker inside an event is repeated on its own line before the event, as the CLI does', () => {
    const xml = eventNotification('b1', 'd', 'x <artifact-content-authored-by-others/> y');
    expect(xml).toContain('</summary>\n<artifact-content-authored-by-others/>\n<event>x &lt;artifact-content-authored-by-others/&gt; y</event>');
  });
});

describe('terminal notifications', () => {
  test('exit 0 after events: completed, "stream ended"', () => {
    const records = mapAll([event('x'), end(0)]);
    expect(attachment(records[4]!).prompt).toBe(
      '<task-notification>\n<task-id>btask0001</task-id>\n<status>completed</status>\n<summary>Monitor "tail" stream ended</summary>\n</task-notification>');
  });

  test('exit 0 without any event: completed, "ended without producing output (exit 0)"', () => {
    const [, att] = mapAll([end(0)]);
    expect(attachment(att!).prompt).toContain('<status>completed</status>\n<summary>Monitor "tail" ended without producing output (exit 0)</summary>');
  });

  test('a non-zero exit: failed, "script failed (exit N)"', () => {
    const [, att] = mapAll([end(3)]);
    expect(attachment(att!).prompt).toBe(
      '<task-notification>\n<task-id>btask0001</task-id>\n<status>failed</status>\n<summary>Monitor "tail" script failed (exit 3)</summary>\n</task-notification>');
  });

  test('a stopped monitor: killed, "stopped", whatever its exit code', () => {
    const [, att] = mapAll([end(143, { stopped: true })]);
    expect(attachment(att!).prompt).toContain('<status>killed</status>\n<summary>Monitor "tail" stopped</summary>');
  });

  test('the end is written as the same triple, with matching ids', () => {
    const [enqueue, att, remove] = mapAll([end(1)]);
    expect(enqueue).toMatchObject({ type: 'queue-operation', operation: 'enqueue', content: attachment(att!).prompt });
    expect(remove).toMatchObject({ operation: 'remove', commandUuid: attachment(att!).source_uuid, deliveryId: attachment(att!).delivery_id });
  });

  test('the end has no tool-use-id or output-file lines (there is no Monitor tool call behind it)', () => {
    const xml = endNotification('b1', 'd', { status: 'failed', exitCode: 2 });
    expect(xml).not.toContain('<tool-use-id>');
    expect(xml).not.toContain('<output-file>');
  });

  test('the end is found under the task id the events got from their description', () => {
    const records = mapAll([event('x', { task_id: undefined }), end(0, { task_id: undefined })]);
    const ids = [records[1]!, records[4]!].map((r) => /<task-id>(.*)<\/task-id>/.exec(attachment(r).prompt)![1]);
    expect(ids[1]).toBe(ids[0]);
    expect(attachment(records[4]!).prompt).toContain('stream ended');
  });

  test('an over-long summary keeps its first 500 and last 300 characters, as the real CLI cut one', () => {
    // Claude Code 2.1.328 wrote exactly this for a Monitor described by 600 "d", "&", 600 "e" that ended.
    const description = `${'d'.repeat(600)}&${'e'.repeat(600)}`;
    expect(truncateSummary(`Monitor "${description}" stream ended`))
      .toBe(`Monitor "${'d'.repeat(491)}\n\n... [424 characters truncated] ...\n\n${'e'.repeat(286)}" stream ended`);
  });

  test('the summary cut does not split a surrogate pair', () => {
    const cut = truncateSummary(`${'x'.repeat(499)}${'\u{1F600}'.repeat(400)}`);
    expect(cut.startsWith(`${'x'.repeat(499)}\n\n...`)).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
