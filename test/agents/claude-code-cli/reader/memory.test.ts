// Reading streams: a transcript larger than the reader's whole JavaScript heap is read in full, by every
// mode of `read`. (A reader that loaded the file, or kept its records, would run out of memory here.)
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, cleanEnv, tempDir } from '../../../support/run.js';
import { SID } from './support.js';

const RECORDS = 6000;
const HEAP_MB = 40;
let dir: string;
let file: string;

beforeAll(() => {
  dir = tempDir('asyncai-memory-');
  file = join(dir, `${SID}.jsonl`);
  const fd = openSync(file, 'w');
  const big = 'y'.repeat(16_000);
  let parent: string | null = null;
  for (let i = 0; i < RECORDS; i += 1) {
    const uuid = `u${i}`;
    const timestamp = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const record = i % 2 === 0
      ? { type: 'user', uuid, parentUuid: parent, timestamp, sessionId: SID, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: `${big}${i}` }] } }
      : { type: 'assistant', uuid, parentUuid: parent, timestamp, sessionId: SID, message: { id: `m${i}`, role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `echo ${i}` } }], usage: { input_tokens: 1, output_tokens: 1 } } };
    writeSync(fd, `${JSON.stringify(record)}\n`);
    parent = uuid;
  }
  closeSync(fd);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Run the bin with a small heap; count stdout lines without keeping them. */
function readWithSmallHeap(args: string[]): Promise<{ code: number | null; lines: number; last: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, 'read', ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let tail = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines += 1;
      tail = (tail + d.toString('utf8')).slice(-400);
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, lines, last: tail.trimEnd().split('\n').at(-1) ?? '', stderr: stderr.slice(0, 500) }));
  });
}

describe(`a transcript of ~96 MB read with a ${HEAP_MB} MB heap`, () => {
  test('every event is printed', async () => {
    const r = await readWithSmallHeap([file]);
    expect([r.code, r.stderr, r.lines]).toEqual([0, '', RECORDS]);
    expect(JSON.parse(r.last)).toMatchObject({ type: 'tool_call', id: `t${RECORDS - 1}` });
  });

  test('--usage counts every response', async () => {
    const r = await readWithSmallHeap(['--usage', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.last)).toMatchObject({ responses: RECORDS / 2, output_tokens: RECORDS / 2 });
  });

  test('--tree finds the one branch', async () => {
    const r = await readWithSmallHeap(['--tree', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.last)).toMatchObject({ leaf: `u${RECORDS - 1}`, records: RECORDS, resumed: true });
  });
});
