// The fast write path: long strings of an input line are found in its bytes and spliced into records as they
// are, and the transcript file writes text and byte pieces back to back. Every result must be the same JSON
// value that JSON.stringify would have written.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { AppendFile } from '../../lib/session/append-file.js';
import { LineSplitter, type Line } from '../../lib/lines/lines.js';
import { jsonSourceOf, MIN_SPLICE_CHARS, parseBytes } from '../../lib/json/raw-json.js';
import { isStringifyForm, stringifySpliced } from '../../lib/json/spliced-json.js';
import { runFilter, type FilterOptions } from '../../lib/filter/index.js';
import { tempDir } from '../support/run.js';

const LONG = 'x'.repeat(MIN_SPLICE_CHARS);

/** The lines (and parsed values) of `text`, as the filter sees them. */
function parsed(text: string | Buffer): { line: Line; value: unknown }[] {
  const splitter = new LineSplitter();
  const lines = [...splitter.push(Buffer.isBuffer(text) ? text : Buffer.from(text)), ...splitter.end()];
  return lines.map((line) => ({ line, value: JSON.parse(line.text!) }));
}

function only(text: string | Buffer) {
  const [first] = parsed(text);
  const source = jsonSourceOf(first!.line, first!.value);
  return { value: first!.value as Record<string, unknown>, source };
}

/** Pieces joined as the file would hold them. */
function joined(json: string | (string | Uint8Array)[]): string {
  if (typeof json === 'string') return json;
  return Buffer.concat(json.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString('utf8');
}

describe('JsonSource', () => {
  test('a long string is found with its raw bytes, escapes and all', () => {
    const raw = `${LONG}\\"caf\\u00e9\\\\ \\n日本`;
    const { value, source } = only(`{"type":"user","text":"${raw}"}\n`);
    expect(source!.rawOf(value.text as string)?.toString('utf8')).toBe(raw);
  });

  test('long strings nested in objects and arrays are found too', () => {
    const { value, source } = only(`{"content":[{"type":"text","text":"${LONG}a"},{"x":{"y":"${LONG}b"}}]}\n`);
    const content = value.content as { text?: string; x?: { y: string } }[];
    expect(source!.rawOf(content[0]!.text!)?.toString()).toBe(`${LONG}a`);
    expect(source!.rawOf(content[1]!.x!.y)?.toString()).toBe(`${LONG}b`);
  });

  test('a string the line does not hold, or a short one, has no raw text', () => {
    const { value, source } = only(`{"text":"${LONG}","short":"abc"}\n`);
    expect(source!.rawOf(`${value.text as string}!`)).toBeUndefined();
    expect(source!.rawOf('abc')).toBeUndefined();
  });

  test('with a duplicate key the last value wins, as in JSON.parse', () => {
    const { value, source } = only(`{"text":"${LONG}first","text":"${LONG}last"}\n`);
    expect(value.text).toBe(`${LONG}last`);
    expect(source!.rawOf(value.text as string)?.toString()).toBe(`${LONG}last`);
  });

  test('keys with escapes, odd spacing and a CRLF ending are scanned right', () => {
    const { value, source } = only(` { "a\\u0062" : [ 1 , true , null , -2.5e3 ] , "t\\"" :\t"${LONG}" }\r\n`);
    expect(source!.rawOf(value['t"'] as string)?.toString()).toBe(LONG);
  });

  test('lines with invalid UTF-8, and values that are not objects or arrays, get no source', () => {
    const bad = Buffer.concat([Buffer.from(`{"text":"${LONG}`), Buffer.from([0xff]), Buffer.from('"}\n')]);
    expect(only(bad).source).toBeUndefined();
    expect(only('"text"\n').source).toBeUndefined();
    // An array has no members to give.
    expect(only('["text"]\n').source!.rawMember('0', 'text')).toBeUndefined();
  });

  test('a short line splices no long strings, but its top-level members', () => {
    const { value, source } = only('{"text":"short"}\n');
    expect(source!.holdsLongStrings).toBe(false);
    expect(source!.rawOf('short')).toBeUndefined();
    expect(source!.rawMember('text', value.text)?.toString()).toBe('"short"');
  });
});

describe('JsonSource.rawMember', () => {
  test('a member is its raw text: escapes, spacing, objects, arrays', () => {
    const line = ` { "type" : "user" , "text" :\t"caf\\u00e9 \\"q\\" \\\\" , "n": -2.5e3, "arguments" : { "a" : [ 1 , "}" ] } , "list":[{"text":"x"}] }\r\n`;
    const { value, source } = only(line);
    expect(source!.rawMember('text', value.text)?.toString()).toBe('"caf\\u00e9 \\"q\\" \\\\"');
    expect(source!.rawMember('arguments', value.arguments)?.toString()).toBe('{ "a" : [ 1 , "}" ] }');
    expect(source!.rawMember('list', value.list)?.toString()).toBe('[{"text":"x"}]');
  });

  test('a member megabytes into a long line is found whole', () => {
    const big = 'é'.repeat(3 * 1024 * 1024);
    const { value, source } = only(`{"type":"tool_result","id":"t","pad":"${'x'.repeat(5 * 1024 * 1024)}","content":"${big}","is_error":false}\n`);
    const raw = source!.rawMember('content', value.content);
    expect(raw?.length).toBe(Buffer.byteLength(big) + 2);
    expect(raw?.toString('utf8')).toBe(`"${big}"`);
  });

  test('only the value the line holds at that key: not another value, not another object, not a nested key', () => {
    const { value, source } = only('{"text":"a","arguments":{"k":1},"inner":{"name":"b"}}\n');
    expect(source!.rawMember('text', 'b')).toBeUndefined();
    expect(source!.rawMember('arguments', { k: 1 })).toBeUndefined();
    expect(source!.rawMember('name', 'b')).toBeUndefined();
    expect(source!.rawMember('arguments', value.arguments)?.toString()).toBe('{"k":1}');
  });

  test('an object holding a number JSON.stringify writes otherwise (Infinity, -0), or nested too deep for it, is not spliced', () => {
    for (const number of ['1e400', '-0', '-0.0', '1E2', `1${'0'.repeat(400)}`]) {
      const { value, source } = only(`{"arguments":{"a":[${number}]},"list":["${number}"]}\n`);
      expect(source!.rawMember('arguments', value.arguments)).toBeUndefined();
      expect(source!.rawMember('list', value.list)?.toString()).toBe(`["${number}"]`);
    }
    const deep = (levels: number) => `{"arguments":${'['.repeat(levels)}${']'.repeat(levels)}}\n`;
    const tooDeep = only(deep(10_000));
    expect(tooDeep.source!.rawMember('arguments', tooDeep.value.arguments)).toBeUndefined();
    const shallow = only(deep(100));
    expect(shallow.source!.rawMember('arguments', shallow.value.arguments)?.length).toBe(200);
    const { value, source } = only('{"arguments":{"a":[-1.5,0,10,true,false,null,"1e400"]}}\n');
    expect(source!.rawMember('arguments', value.arguments)?.toString()).toBe('{"a":[-1.5,0,10,true,false,null,"1e400"]}');
  });

  test('a key that is there twice, or any escaped key (it may spell another), gives nothing', () => {
    const twice = only('{"text":"first","text":"last"}\n');
    expect(twice.value.text).toBe('last');
    expect(twice.source!.rawMember('text', 'last')).toBeUndefined();
    const escaped = only('{"text":"first","te\\u0078t":"last"}\n');
    expect(escaped.value.text).toBe('last');
    expect(escaped.source!.rawMember('text', 'last')).toBeUndefined();
    expect(escaped.source!.rawMember('text', 'first')).toBeUndefined();
  });

  test('generated lines: every member found parses to the value JSON.parse gave', () => {
    const pieces = ['"', '\\"', '\\\\', 'é', '日本', '😀', '\\ud83d', ' ', '{', '}', '[', ']', ',', ':', 'text', '\\n'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const text = (): string => Array.from({ length: next(12) }, () => pieces[next(pieces.length)]!.replace(/^"$/, '\\"')).join('');
    const member = (): string => {
      switch (next(5)) {
        case 0: return `"${text()}"`;
        case 1: return `{"text":"${text()}","n":[1,{"x":"${text()}"}]}`;
        case 2: return `[ "${text()}" , { } ]`;
        case 3: return String(next(1000) - 500);
        default: return 'null';
      }
    };
    let found = 0;
    for (let i = 0; i < 500; i += 1) {
      const keys = ['text', 'arguments', 'content', 'type', 'text', 'id'].slice(next(3), 3 + next(4));
      const line = `{${keys.map((key) => `${next(2) ? ' ' : ''}"${key}"${next(2) ? ' ' : ''}:${member()}`).join(',')}}\n`;
      const { value, source } = only(line);
      for (const key of new Set(keys)) {
        const raw = source!.rawMember(key, value[key]);
        if (keys.indexOf(key) !== keys.lastIndexOf(key)) {
          expect(raw).toBeUndefined();
          continue;
        }
        expect(JSON.parse(raw!.toString('utf8'))).toEqual(value[key]);
        found += 1;
      }
    }
    expect(found).toBeGreaterThan(500);
  });
});

describe('parseBytes', () => {
  const BIG = 'é"\\'.repeat(40_000);
  const line = Buffer.from(JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', content: BIG }] }, toolUseResult: { stdout: BIG, code: 0 } }));

  test('parses a line with long strings piecewise to what JSON.parse gives, their raw bytes known to the source', () => {
    const parsedBytes = parseBytes(line)!;
    expect(parsedBytes.value).toEqual(JSON.parse(line.toString('utf8')));
    expect(parsedBytes.source.rawOf(BIG)?.toString('utf8')).toBe(JSON.stringify(BIG).slice(1, -1));
  });

  test('leaves the long strings of an unread top-level member empty, and the rest as JSON.parse gives it', () => {
    const { value, source } = parseBytes(line, ['toolUseResult'])!;
    const full = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    expect(value).toEqual({ ...full, toolUseResult: { stdout: '', code: 0 } });
    const content = ((value as { message: { content: { content: string }[] } }).message.content[0]!).content;
    expect(source.rawOf(content)?.toString('utf8')).toBe(JSON.stringify(BIG).slice(1, -1));
  });
});

describe('stringifySpliced', () => {
  test('the spliced JSON is the value JSON.stringify writes', () => {
    const { value, source } = only(`{"text":"${LONG}\\u00e9\\/","n":1}\n`);
    const record = { type: 'user', message: { role: 'user', content: value.text }, other: 'short', copy: value.text };
    const pieces = stringifySpliced(record, source!);
    expect(typeof pieces).not.toBe('string');
    expect(JSON.parse(joined(pieces))).toEqual(record);
  });

  test('a record without long strings of the line is plain JSON.stringify', () => {
    const { source } = only(`{"text":"${LONG}"}\n`);
    const record = { a: 'b', c: [1, 2] };
    expect(stringifySpliced(record, source!)).toBe(JSON.stringify(record));
  });
});

describe('isStringifyForm', () => {
  const raw = (text: string) => Buffer.from(text);

  test('says yes to what JSON.stringify writes, lone surrogates and every control character included', () => {
    const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
    const values = ['', 'plain', 'é 日本 😀 \u007f \u2028', `"quoted" \\ ${controls}`, '\ud800 lone', 'end \udfff', '\udc00\ud800', 'x\ud83d'];
    for (const value of values) expect(isStringifyForm(raw(JSON.stringify(value).slice(1, -1))), value).toBe(true);
  });

  test('says no to escapes JSON.stringify never writes', () => {
    // Raw JSON string text: an escaped slash, escaped non-ASCII and printable ASCII, uppercase hex, an escaped
    // surrogate pair, \u0008 for \b.
    const texts = ['a\\/b', '\\u00e9', '\\u001B', '\\u0041', '\\ud83d\\ude00', '\\uD800', 'x \\u0008'];
    for (const text of texts) {
      expect(() => JSON.parse(`"${text}"`) as unknown).not.toThrow();
      expect(isStringifyForm(raw(text)), text).toBe(false);
    }
  });
});

describe('AppendFile', () => {
  test('text and byte pieces are written back to back and counted as own bytes', () => {
    const dir = tempDir();
    const { file } = AppendFile.createExclusive(dir, () => 'f.jsonl');
    const big = Buffer.from('y'.repeat(100_000));
    file.write(['{"a":"', Buffer.from('é'), '"}\n', 'z'.repeat(3_000_000), big, '\n']);
    file.write('tail\n');
    expect(file.foreignBytes()).toBeUndefined();
    file.close();
    expect(readFileSync(file.path, 'utf8')).toBe(`{"a":"é"}\n${'z'.repeat(3_000_000)}${'y'.repeat(100_000)}\ntail\n`);
  });
});

describe('the filter with long lines', () => {
  test('records of long events hold the same values as the events', async () => {
    const root = tempDir();
    const text = `${LONG} "quoted" caf\u00e9 日本 \\ end`;
    const input = [
      JSON.stringify({ type: 'user', text }),
      // A producer that escapes all non-ASCII: the transcript keeps its escapes, the value is the same.
      JSON.stringify({ type: 'tool_call', id: 't1', name: 'Bash', arguments: { command: text } }).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      JSON.stringify({ type: 'tool_result', id: 't1', content: text }),
    ].join('\n');
    const options: FilterOptions = {
      formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, cwd: '/home/user/project', agentName: 'test',
      noSession: false, echo: false, strict: false, from: 'auto', env: {}, homedir: root, processCwd: root,
    };
    const sink = () => new PassThrough().resume();
    const result = await runFilter(options, { stdin: Readable.from([Buffer.from(input)]), stdout: sink(), stderr: sink() });
    expect(result.code).toBe(0);
    const written = readFileSync(result.harnesses[0]!.sessionFile, 'utf8');
    expect(written).toContain('caf\\u00e9'); // spliced as it came, not serialised again
    const records = written.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => r.message.content)).toEqual([
      text,
      [expect.objectContaining({ type: 'tool_use', input: { command: text } })],
      [expect.objectContaining({ type: 'tool_result', content: text })],
    ]);
  });
});
