// Lines of a megabyte and more: gathered in one growing buffer, decoded only when their text is read, and
// parsed by the filter from their bytes, long strings piece by piece. Every result must be JSON.parse's.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { LineSplitter, LAZY_TEXT_BYTES, isLazyLine, isOverLong, type Line } from '../../lib/lines/lines.js';
import { parseLine, jsonSourceOf } from '../../lib/json/raw-json.js';
import { runFilter, type FilterOptions } from '../../lib/filter/index.js';
import { tempDir } from '../support/run.js';

/** Split `input` in `size`-byte chunks, as a stream delivers it. */
function split(input: Buffer, size = 65536): Line[] {
  const splitter = new LineSplitter();
  const lines: Line[] = [];
  for (let i = 0; i < input.length; i += size) lines.push(...splitter.push(input.subarray(i, i + size)));
  lines.push(...splitter.end());
  return lines;
}

/**
 * A string whose JSON escapes fall on every byte offset around the decoder's 32 KiB pieces: quotes,
 * backslashes, \u escapes, a surrogate pair as two escapes, 2- to 4-byte UTF-8, control characters.
 */
function awkwardJsonText(bytes: number): string {
  const pattern = 'ab"c\\d\u00e9\u65e5\ud83d\ude00\n\t\u0001/';
  let json = JSON.stringify(pattern).slice(1, -1) + '\\ud83d\\ude00\\u00e9\\/x';
  let out = '';
  let skew = 0;
  while (out.length < bytes) {
    out += 'y'.repeat(skew % 7) + json;
    skew += 1;
  }
  return out;
}

describe('huge lines', () => {
  test('a line of several megabytes across 64 KiB chunks comes out whole, with its neighbours', () => {
    const big = `{"type":"user","text":"${'q'.repeat(3 * LAZY_TEXT_BYTES)}"}`;
    const lines = split(Buffer.from(`{"a":1}\n${big}\n{"b":2}\n`));
    expect(lines.map((l) => l.text?.length)).toEqual([7, big.length, 7]);
    expect(lines[1]!.text).toBe(big);
  });

  test('a huge line is not over-long, and its text reads the same as it would eagerly', () => {
    const text = `{"content":"${awkwardJsonText(LAZY_TEXT_BYTES + 100)}"}`;
    const [line] = split(Buffer.from(`${text}\n`));
    expect(isOverLong(line!)).toBe(false);
    expect(line!.text).toBe(text);
  });

  test('a huge line parses to the value JSON.parse gives, whatever escapes fall on the piece boundaries', () => {
    const text = `{"type":"tool_result","id":"t","content":"${awkwardJsonText(3 * LAZY_TEXT_BYTES)}","more":["${awkwardJsonText(200_000)}",{"k":"${awkwardJsonText(70_000)}"}],"n":1}`;
    const [line] = split(Buffer.from(`${text}\n`));
    expect(parseLine(line!)).toEqual(JSON.parse(text));
  });

  test('a huge line is parsed without its text ever being decoded whole', () => {
    const [line] = split(Buffer.from(`{"content":"${awkwardJsonText(2 * LAZY_TEXT_BYTES)}"}\n`));
    parseLine(line!);
    expect(isLazyLine(line!)).toBe(true);
  });

  test('the long strings of a piecewise parse are spliced from the line bytes', () => {
    const raw = awkwardJsonText(2 * LAZY_TEXT_BYTES);
    const [line] = split(Buffer.from(`{"content":"${raw}"}\n`));
    const value = parseLine(line!) as { content: string };
    expect(jsonSourceOf(line!, value)?.rawOf(value.content)?.toString()).toBe(raw);
  });

  test('invalid JSON in a huge line is reported with JSON.parse\'s own message', () => {
    const text = `{"content":"${'z'.repeat(LAZY_TEXT_BYTES)}\u0001bad"}`;
    const [line] = split(Buffer.from(`${text}\n`));
    let expected = '';
    try {
      JSON.parse(text);
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(() => parseLine(line!)).toThrow(expected);
  });

  test('the filter writes a huge tool result with the value it was given', async () => {
    const root = tempDir();
    const content = JSON.parse(`"${awkwardJsonText(2 * LAZY_TEXT_BYTES)}"`) as string;
    const input = [
      JSON.stringify({ type: 'tool_call', id: 't1', name: 'Bash', arguments: { command: 'cat big' } }),
      JSON.stringify({ type: 'tool_result', id: 't1', content }),
    ].join('\n');
    const options: FilterOptions = {
      formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, cwd: '/home/user/project', agentName: 'test',
      noSession: false, echo: false, strict: false, from: 'auto', env: {}, homedir: root, processCwd: root,
    };
    const sink = () => new PassThrough().resume();
    const chunks: Buffer[] = [];
    const bytes = Buffer.from(input);
    for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
    const result = await runFilter(options, { stdin: Readable.from(chunks), stdout: sink(), stderr: sink() });
    expect(result.code).toBe(0);
    const records = readFileSync(result.harnesses[0]!.sessionFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records[1].message.content[0].content).toBe(content);
  });
});
