// Convert reads a file's lines as the filter reads stdin (lib/input/event-reader.ts): a line over the limit,
// invalid JSON and invalid UTF-8 get the filter's diagnostics, and a huge line is parsed from its bytes,
// never decoded whole.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { convertSource } from '../../lib/convert/convert-file.js';
import type { ConvertSettings, ConvertTask } from '../../lib/convert/types.js';
import { runFilter, type FilterOptions } from '../../lib/filter/index.js';
import { LAZY_TEXT_BYTES } from '../../lib/lines/lines.js';
import { tempDir } from '../support/run.js';

const T = '2026-11-29T10:00:00.000Z';

/** Convert `input` (a file of generic events) into a temp Claude Code root: the outcome. */
async function convert(input: Buffer, maxLineBytes?: number) {
  const dir = tempDir();
  const path = join(dir, 'log.ndjson');
  writeFileSync(path, input);
  const task: ConvertTask = { index: 0, path: 'log.ndjson', real: path, reason: 'new', targets: [{ format: 'claude-code-cli', root: join(dir, 'root'), rewrite: false }] };
  const settings: ConvertSettings = {
    from: 'auto', cwd: '/home/user/project', processCwd: dir, keepUsage: false, subagents: false, dryRun: false,
    env: {}, homedir: dir, ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
  };
  return convertSource(task, settings);
}

/** The filter's diagnostics for `input` read as file `log.ndjson`, as convert words them (`<path>:<line>: ...`). */
async function filterMessages(input: Buffer, maxLineBytes?: number): Promise<string[]> {
  const root = tempDir();
  const options: FilterOptions = {
    formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, cwd: '/home/user/project', agentName: 'test',
    noSession: false, echo: false, strict: false, from: 'auto', env: {}, homedir: root, processCwd: root, inputName: 'log.ndjson',
    ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
  };
  let stderr = '';
  const err = new PassThrough().on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  await runFilter(options, { stdin: Readable.from([input]), stdout: new PassThrough().resume(), stderr: err });
  return stderr.split('\n').filter(Boolean).map((line) => line.replace(/^asyncai-log: /, ''));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('convert reads lines as the filter does', () => {
  test('a line over the line limit gets the filter\'s diagnostic, and the lines around it are converted', async () => {
    const input = Buffer.from([
      JSON.stringify({ type: 'user', text: 'before', timestamp: T }),
      JSON.stringify({ type: 'assistant', text: 'x'.repeat(2000), timestamp: T }),
      JSON.stringify({ type: 'assistant', text: 'after', timestamp: T }),
    ].join('\n') + '\n');
    const outcome = await convert(input, 1000);
    expect(outcome.status).toBe('converted');
    expect(outcome.messages).toEqual(await filterMessages(input, 1000));
    expect(outcome.messages).toEqual([expect.stringMatching(/^log\.ndjson:2: line of \d+ bytes is over the limit of 1000 bytes; skipped$/)]);
    expect(outcome.events).toBe(2);
  });

  test('invalid JSON and invalid UTF-8 get the filter\'s diagnostics', async () => {
    const input = Buffer.concat([
      Buffer.from(`${JSON.stringify({ type: 'user', text: 'hi', timestamp: T })}\n{"type":"assistant",\n`),
      Buffer.from(`{"type":"assistant","text":"caf`), Buffer.from([0xff]), Buffer.from(`","timestamp":"${T}"}\n`),
      Buffer.from(`{"type":"nonsense`), Buffer.from([0xfe]), Buffer.from('\n'),
      Buffer.from(`${JSON.stringify({ type: 'assistant', text: 'end', timestamp: T })}\n`),
    ]);
    const outcome = await convert(input);
    expect(outcome.messages).toEqual(await filterMessages(input));
    expect(outcome.messages).toEqual([
      expect.stringMatching(/^log\.ndjson:2: invalid JSON: .*: "\{\\"type\\":\\"assistant\\","$/),
      'log.ndjson:3: invalid UTF-8 replaced with U+FFFD',
      expect.stringMatching(/^log\.ndjson:4: invalid JSON: .* \(the line also held invalid UTF-8\)$/),
    ]);
  });

  test('a huge line is parsed from its bytes, never decoded whole', async () => {
    const content = 'q'.repeat(2 * LAZY_TEXT_BYTES);
    const input = Buffer.from([
      JSON.stringify({ type: 'tool_call', id: 't1', name: 'Bash', arguments: { command: 'cat big' }, timestamp: T }),
      JSON.stringify({ type: 'tool_result', id: 't1', content, timestamp: T }),
    ].join('\n') + '\n');
    const parse = vi.spyOn(JSON, 'parse');
    const outcome = await convert(input);
    const longest = Math.max(...parse.mock.calls.map(([text]) => String(text).length));
    parse.mockRestore();
    expect(outcome.status).toBe('converted');
    expect(outcome.messages).toEqual([]);
    expect(outcome.events).toBe(2);
    expect(longest).toBeLessThan(LAZY_TEXT_BYTES);
  });
});
