// Spilled output: "Full output saved to: <path>" is resolved from the file, under the rules for a path that
// comes from input (a regular file reached without a link, capped: test/util/no-follow.test.ts), never written.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MAX_SPILL_BYTES, readSpillFile } from '../../../../lib/agents/claude-code-cli/reader/spill.js';
import { tempDir } from '../../../support/run.js';
import { attachment, readAll, SID, text, toolResult, user, writeTranscript } from './support.js';

const pointer = (path: string) => `<persisted-output>\nOutput too large (45.0KB). Full output saved to: ${path}\n\nPreview (first 2KB):\n1\n2\n</persisted-output>`;

/** A path where Claude Code keeps spilled output: `<dir>/<session-uuid>/tool-results/<name>` (only such are read). */
function spillPath(name: string): string {
  const dir = join(tempDir(), SID, 'tool-results');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

function spilled(path: string, content: unknown = pointer(path)) {
  return writeTranscript([user('r1', null, [toolResult('c1', content)])]);
}

describe('spilled output', () => {
  test('a pointer is replaced by the spilled file', async () => {
    const file = spillPath('out.txt');
    writeFileSync(file, 'the whole output\n');
    const { events, warnings } = await readAll(spilled(file));
    expect(events[0]).toMatchObject({ type: 'tool_result', content: 'the whole output\n' });
    expect(warnings).toEqual([]);
  });

  test('a pointer inside a text part is replaced in that part', async () => {
    const file = spillPath('out.txt');
    writeFileSync(file, 'full');
    const { events } = await readAll(spilled(file, [text('before'), text(pointer(file))]));
    expect(events[0]).toMatchObject({ content: [{ type: 'text', text: 'before' }, { type: 'text', text: 'full' }] });
  });

  test('a missing file leaves the pointer, with a warning', async () => {
    const file = spillPath('gone.txt');
    const { events, warnings } = await readAll(spilled(file));
    expect(events[0]).toMatchObject({ content: pointer(file) });
    expect(warnings.map((w) => w.message)).toEqual([`spilled output ${file} is missing; the pointer is kept`]);
  });

  test('a file over the cap leaves the pointer, with a warning', () => {
    const file = join(tempDir(), 'big.txt');
    writeFileSync(file, Buffer.alloc(MAX_SPILL_BYTES + 1, 0x61));
    expect(readSpillFile(file)).toEqual({ ok: false, reason: `${MAX_SPILL_BYTES + 1} bytes, over the limit of ${MAX_SPILL_BYTES}` });
  });

  test('the spilled file is not modified by reading it', async () => {
    const file = join(tempDir(), 'out.txt');
    writeFileSync(file, 'data');
    const before = statSync(file);
    await readAll(spilled(file));
    const after = statSync(file);
    expect([after.size, after.mtimeMs, after.mode]).toEqual([before.size, before.mtimeMs, before.mode]);
  });

  test('a moved transcript finds its spill in its own session directory', async () => {
    const dir = join(tempDir(), 'projects', '-home-user-project');
    mkdirSync(join(dir, SID, 'tool-results'), { recursive: true });
    writeFileSync(join(dir, SID, 'tool-results', 'abc123.txt'), 'found beside the transcript');
    const recorded = `/home/somebody/.claude/projects/-home-somebody-project/${SID}/tool-results/abc123.txt`;
    const path = writeTranscript([user('r1', null, [toolResult('c1', pointer(recorded))])], { dir });
    const { events } = await readAll(path);
    expect(events[0]).toMatchObject({ content: 'found beside the transcript' });
  });

  test('with resolveSpills off the pointer is kept without a warning', async () => {
    const file = join(tempDir(), 'out.txt');
    writeFileSync(file, 'full');
    const { events, warnings } = await readAll(spilled(file), { resolveSpills: false });
    expect(events[0]).toMatchObject({ content: pointer(file) });
    expect(warnings).toEqual([]);
  });

  test('a pointer in an attachment is replaced by the spilled file (read --events)', async () => {
    const file = spillPath('hook.txt');
    writeFileSync(file, 'the whole hook output\n');
    const path = writeTranscript([
      user('u1', null, 'hi'),
      attachment('t1', 'u1', { type: 'hook_success', content: pointer(file) }),
      attachment('t2', 't1', { type: 'hook_success', content: 'short output' }),
    ]);
    const { events, warnings } = await readAll(path, { includeEvents: true });
    expect(events.filter((e) => e.type === 'context').map((e) => (e as { text?: string }).text)).toEqual(['the whole hook output\n', 'short output']);
    expect(warnings).toEqual([]);
  });

  test('an attachment\'s pointer follows the same rules: outside a tool-results directory it is kept, with a warning', async () => {
    const file = join(tempDir(), 'elsewhere.txt');
    writeFileSync(file, 'not a spill');
    const path = writeTranscript([user('u1', null, 'hi'), attachment('t1', 'u1', { type: 'hook_success', content: pointer(file) })]);
    const { events, warnings } = await readAll(path, { includeEvents: true });
    expect(events[1]).toMatchObject({ type: 'context', kind: 'attachment', text: pointer(file) });
    expect(warnings.map((w) => w.message)).toEqual([`spilled output ${file} is not in a Claude Code tool-results directory; the pointer is kept`]);
  });

  test('without --events an attachment\'s spill is not read at all', async () => {
    const file = spillPath('unread.txt');
    const path = writeTranscript([user('u1', null, 'hi'), attachment('t1', 'u1', { type: 'hook_success', content: pointer(file) })]);
    const { events, warnings } = await readAll(path);
    expect(events.map((e) => e.type)).toEqual(['user']);
    expect(warnings).toEqual([]);
  });
});
