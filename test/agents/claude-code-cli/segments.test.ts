// Records serialised on a worker thread in segments, and taken over by the harness on the main thread: the
// marks give way to the main thread's state (parent, turn, model), and a foreign append seen before a segment
// is chained onto as it is for records mapped on the main thread.
import { describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { claudeCodeCli } from '../../../lib/agents/claude-code-cli/harness.js';
import { isSegmentTarget, SegmentWriter } from '../../../lib/agents/claude-code-cli/segments.js';
import { taskIdFor } from '../../../lib/monitor/task-id.js';
import { tempDir } from '../../support/run.js';

const T = '2026-11-29T10:00:00.000Z';

function records(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

describe('segments', () => {
  test('a segment continues the chain, the turn and the model of the records before it', () => {
    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, model: 'claude-opus-4-1-20250805', warn: () => {} });
    if (!isSegmentTarget(h)) throw new Error('the Claude harness takes segments');
    h.add({ type: 'assistant', text: 'on main', model: 'claude-haiku-4-5-20251001', timestamp: T }, 'stdin:1');
    const writer = new SegmentWriter(h.segmentOptions());
    writer.add({ type: 'assistant', text: 'on a worker', timestamp: T });
    writer.add({ type: 'tool_call', id: 't1', name: 'Bash', arguments: { command: 'ls' }, timestamp: T });
    const segment = writer.close()!;
    const bytes = writer.take();
    expect(bytes.toString()).toContain('asyncai-log-parent-');
    h.addSegment(bytes, segment, writer.markLengths);
    h.add({ type: 'tool_result', id: 't1', content: 'a.txt', timestamp: T }, 'stdin:4');
    h.finish();
    const [first, second, third, fourth] = records(h.sessionFile);
    expect(second.parentUuid).toBe(first.uuid);
    expect(third.parentUuid).toBe(second.uuid);
    expect(fourth.parentUuid).toBe(third.uuid);
    expect(second.message.id).toBe(first.message.id);
    expect(third.message.id).toBe(first.message.id);
    expect(second.message.model).toBe('claude-haiku-4-5-20251001');
    // The call made known on the worker is known on the main thread: its result is a tool_result.
    expect(fourth.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 't1' });
    expect(readFileSync(h.sessionFile, 'utf8')).not.toContain('asyncai-log-');
  });

  test('a segment goes on with the usage and time of a turn begun before it, as one mapper would', () => {
    const u1 = { input_tokens: 100, output_tokens: 50 };
    const u2 = { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3 };
    const u3 = { input_tokens: 7, output_tokens: 7 };
    const before = [
      { type: 'user', text: 'go', timestamp: T },
      { type: 'assistant', text: 'on main', usage: u1, timestamp: T },
    ] as const;
    const onWorker = [
      { type: 'tool_call', id: 't1', name: 'Bash', arguments: {}, timestamp: T },
      { type: 'tool_call', id: 't2', name: 'Bash', arguments: {}, usage: u2, timestamp: T },
      { type: 'tool_result', id: 't1', content: 'x', is_error: false, timestamp: T },
      { type: 'assistant', text: 'a new turn on the worker', usage: u3, timestamp: T },
    ] as const;
    const after = { type: 'tool_call', id: 't3', name: 'Bash', arguments: {}, usage: u3, timestamp: T } as const;
    const wanted = (file: string) => records(file).map((r) => [r.timestamp, r.message.usage]);

    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: () => {} });
    if (!isSegmentTarget(h)) throw new Error('the Claude harness takes segments');
    for (const e of before) h.add(e, 'stdin');
    const writer = new SegmentWriter(h.segmentOptions());
    for (const e of onWorker) writer.add(e);
    const segment = writer.close()!;
    h.addSegment(writer.take(), segment, writer.markLengths);
    h.add(after, 'stdin');
    h.finish();

    const one = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: () => {} });
    for (const e of [...before, ...onWorker, after]) one.add(e, 'stdin');
    one.finish();
    expect(wanted(h.sessionFile)).toEqual(wanted(one.sessionFile));
    expect(wanted(h.sessionFile)).toEqual([
      [T, undefined],
      [T, u1],
      ['2026-11-29T10:00:00.001Z', u1],
      ['2026-11-29T10:00:00.002Z', { input_tokens: 101, output_tokens: 52, cache_read_input_tokens: 3 }],
      [T, undefined],
      [T, u3],
      ['2026-11-29T10:00:00.001Z', { input_tokens: 14, output_tokens: 14 }],
    ]);
  });

  test('a segment after a foreign append is chained onto the foreign record, with a checkpoint', () => {
    const warnings: string[] = [];
    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: (m) => warnings.push(m) });
    if (!isSegmentTarget(h)) throw new Error('the Claude harness takes segments');
    h.add({ type: 'user', text: 'a', timestamp: T }, 'stdin:1');
    h.flush();
    appendFileSync(h.sessionFile, '{"type":"assistant","uuid":"foreign-1","parentUuid":"x"}\n');
    const writer = new SegmentWriter(h.segmentOptions());
    writer.add({ type: 'user', text: 'b', timestamp: T });
    const segment = writer.close()!;
    h.addSegment(writer.take(), segment, writer.markLengths);
    h.finish();
    const lines = records(h.sessionFile);
    const own = lines.filter((r) => r.type === 'user');
    expect(own[1].parentUuid).toBe('foreign-1');
    expect(lines.at(-1)).toMatchObject({ type: 'last-prompt', leafUuid: own[1].uuid });
    expect(warnings.filter((w) => w.includes('session.foreign_append'))).toHaveLength(1);
  });

  test('a monitor without a task id gets the same id from every mapper of one session, and another in the next', () => {
    const key = new Uint8Array(32).fill(7);
    const id = taskIdFor(key, 'tail -f build.log');
    expect(id).toMatch(/^b[a-z0-9]{8}$/);
    expect(taskIdFor(key, 'tail -f build.log')).toBe(id);
    expect(taskIdFor(key, 'npm test')).not.toBe(id);
    expect(taskIdFor(new Uint8Array(32).fill(8), 'tail -f build.log')).not.toBe(id);
  });
});
