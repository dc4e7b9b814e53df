// The first pass's byte-level read of a record's head (lib/agents/claude-code-cli/reader/record-head.ts) against
// JSON.parse: on every line it accepts it must give what JSON.parse gives, and it must refuse every line
// JSON.parse refuses. Seeded fuzzing (reordered keys, decoy keys in nested values, escapes, unicode,
// damaged bytes) and the edge cases one by one.
import { describe, expect, test } from 'vitest';
import { Rng } from '../../../reliability/support.js';
import { nodeKind } from '../../../../lib/agents/claude-code-cli/reader/branch-graph.js';
import { readRecordHead } from '../../../../lib/agents/claude-code-cli/reader/record-head.js';

/** A seeded generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

const HEAD_KEYS = ['type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'leafUuid', 'timestamp'] as const;

/** What the head should hold for a value JSON.parse gave: strings and `true` as they are, anything else null. */
function norm(value: unknown): unknown {
  if (value === undefined) return undefined;
  return typeof value === 'string' || value === true ? value : null;
}

/** The head, or undefined, as JSON.parse of the line says it must be (also when the head says otherwise). */
function check(line: string): 'accepted' | 'refused' {
  const bytes = Buffer.from(line);
  const head = readRecordHead(bytes, 0, bytes.length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    expect(head, line).toBeUndefined();
    return 'refused';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    expect(head, line).toBeUndefined();
    return 'refused';
  }
  if (head === undefined) return 'refused';
  const record = parsed as Record<string, unknown>;
  const want: Record<string, unknown> = { kind: nodeKind(record) };
  const got: Record<string, unknown> = { kind: head.kind };
  for (const key of HEAD_KEYS) {
    want[key] = norm(record[key]);
    got[key] = head[key];
  }
  expect(got, line).toEqual(want);
  return 'accepted';
}

const WORDS = ['user', 'assistant', 'system', 'tool_result', 'text', 'compact_boundary', 'last-prompt', 'uuid', 'type', '"uuid":"x"', '\\', 'é€😀', '\u2028', '\u0001', ''];

function randomString(rand: () => number): string {
  let text = '';
  const n = Math.floor(rand() * 4);
  for (let i = 0; i < n; i += 1) text += WORDS[Math.floor(rand() * WORDS.length)]!;
  return text;
}

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 3 || r < 0.35) return randomString(rand);
  if (r < 0.45) return Math.floor(rand() * 2000) - 1000 + (rand() < 0.3 ? 0.5 : 0);
  if (r < 0.5) return [true, false, null][Math.floor(rand() * 3)];
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 3) }, () => randomValue(rand, depth + 1));
  return randomObject(rand, depth + 1);
}

function randomObject(rand: () => number, depth: number): Record<string, unknown> {
  const keys = [...HEAD_KEYS, 'subtype', 'message', 'content', 'x', 'other'];
  const object: Record<string, unknown> = {};
  const n = Math.floor(rand() * 6);
  for (let i = 0; i < n; i += 1) object[keys[Math.floor(rand() * keys.length)]!] = randomValue(rand, depth);
  return object;
}

/** A record of a plausible shape, its keys in random order, values sometimes of the wrong type. */
function randomRecord(rand: () => number): Record<string, unknown> {
  const fields: [string, unknown][] = [
    ['type', ['user', 'assistant', 'system', 'attachment', 'last-prompt', 'summary'][Math.floor(rand() * 6)]],
    ['uuid', rand() < 0.9 ? `u${Math.floor(rand() * 100)}` : randomValue(rand, 2)],
    ['parentUuid', rand() < 0.2 ? null : rand() < 0.1 ? '' : `u${Math.floor(rand() * 100)}`],
    ['isSidechain', rand() < 0.8 ? rand() < 0.5 : randomValue(rand, 2)],
    ['timestamp', rand() < 0.9 ? new Date(1e12 + rand() * 1e10).toISOString() : randomValue(rand, 2)],
    ['message', rand() < 0.5
      ? { role: 'user', content: rand() < 0.5 ? randomString(rand) : Array.from({ length: Math.floor(rand() * 3) }, () => (
        rand() < 0.6 ? { type: 'tool_result', tool_use_id: 't', content: randomString(rand) } : randomObject(rand, 2))) }
      : randomObject(rand, 1)],
  ];
  if (rand() < 0.2) fields.push(['subtype', rand() < 0.5 ? 'compact_boundary' : randomString(rand)]);
  if (rand() < 0.2) fields.push(['logicalParentUuid', `u${Math.floor(rand() * 100)}`]);
  if (rand() < 0.2) fields.push(['leafUuid', `u${Math.floor(rand() * 100)}`]);
  if (rand() < 0.3) fields.push(['x', randomObject(rand, 1)]);
  for (let i = fields.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [fields[i], fields[j]] = [fields[j]!, fields[i]!];
  }
  return Object.fromEntries(fields);
}

/** The line written another way JSON allows: spaces between tokens, \\u escapes, a duplicate key. */
function rewrite(line: string, rand: () => number): string {
  const r = rand();
  if (r < 0.25) return line.replace(/([,:[{])/g, (m) => (rand() < 0.3 ? `${m} \t` : m));
  if (r < 0.5) return line.replace(/[a-z]/g, (c) => (rand() < 0.05 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
  if (r < 0.65) return line.replace(/^\{/, `{"type":"assistant","uuid":"dup",`);
  return line;
}

/** The line with a few bytes changed, cut or inserted: mostly invalid JSON, sometimes valid in a new way. */
function damage(line: string, rand: () => number): string {
  const at = Math.floor(rand() * (line.length + 1));
  const r = rand();
  if (r < 0.3) return line.slice(0, at);
  const junk = ['"', '\\', '{', '}', ',', ':', ']', '\u0000', '\t', '\n', '1', 'e', '-', ' ', 'x', '\\u12', 'tru'][Math.floor(rand() * 17)]!;
  if (r < 0.65) return line.slice(0, at) + junk + line.slice(at);
  return line.slice(0, at) + junk + line.slice(at + 1);
}

describe('readRecordHead', () => {
  test('gives what JSON.parse gives on every line it accepts, and accepts most valid records (5,000 seeded records)', () => {
    const rand = random(11);
    let accepted = 0;
    for (let i = 0; i < 5000; i += 1) {
      const line = rewrite(JSON.stringify(randomRecord(rand)), rand);
      if (check(line) === 'accepted') accepted += 1;
    }
    // Refusing is always safe (the line is parsed); accepting rarely would make the fast path pointless. A
    // quarter of the lines have \u-escaped letters, which a top-level key refuses on purpose.
    expect(accepted).toBeGreaterThan(3000);
  });

  test('refuses every damaged line JSON.parse refuses (20,000 seeded damages)', () => {
    const rand = random(12);
    for (let i = 0; i < 20000; i += 1) check(damage(rewrite(JSON.stringify(randomRecord(rand)), rand), rand));
  });

  test('a key inside a nested value or a string is not taken for the record\'s own', () => {
    const line = '{"message":{"uuid":"inner","type":"assistant"},"x":"\\"uuid\\":\\"text\\"","type":"user","uuid":"outer"}';
    expect(check(line)).toBe('accepted');
    expect(readRecordHead(Buffer.from(line), 0, line.length)).toMatchObject({ uuid: 'outer', type: 'user', kind: 'user' });
  });

  test('a duplicated key gives its last value, as JSON.parse does', () => {
    const line = '{"uuid":"first","type":"user","uuid":"second"}';
    expect(readRecordHead(Buffer.from(line), 0, line.length)).toMatchObject({ uuid: 'second' });
  });

  test('escaped and non-ASCII values are decoded as JSON.parse decodes them', () => {
    const line = '{"type":"user","uuid":"a\\"b\\u00e9\\ud83d\\ude00","parentUuid":"é€😀\u2028"}';
    const bytes = Buffer.from(line);
    expect(readRecordHead(bytes, 0, bytes.length)).toMatchObject({ uuid: 'a"bé😀', parentUuid: 'é€😀\u2028' });
  });

  test('a key written with an escape is left to JSON.parse', () => {
    const line = '{"type":"user","u\\u0075id":"x"}';
    expect(readRecordHead(Buffer.from(line), 0, line.length)).toBeUndefined();
  });

  test('a user record of tool results only is of kind tool-results, whatever the key order', () => {
    const line = '{"message":{"content":[{"tool_use_id":"t","type":"tool_result"},{"type":"tool_result"}],"role":"user"},"type":"user","uuid":"u"}';
    expect(check(line)).toBe('accepted');
    expect(readRecordHead(Buffer.from(line), 0, line.length)?.kind).toBe('tool-results');
  });

  test('a tool result\'s type is found however its key and value are written, its last one counting', () => {
    const kinds = {
      '{"type":"user","message":{"content":[{"\\u0074ype":"tool_\\u0072esult","content":"a \\"type\\":\\"text\\" b"}]}}': 'tool-results',
      '{"type":"user","message":{"content":[ { "content" : [ {"type":"text"} ] , "type" : "tool_result" } , {"type":"tool_result"} ]}}': 'tool-results',
      '{"type":"user","message":{"content":[{"type":"tool_result","t\\u0079pe":"text"}]}}': 'user',
      '{"type":"user","message":{"content":[{"type":"text","type":"tool_result"},{"type":"tool_result","x":{"type":"text"}}]}}': 'tool-results',
      '{"type":"user","message":{"content":[{"type":"tool_result"},{"content":"no type"}]}}': 'user',
      '{"type":"user","message":{"content":[]}}': 'user',
      '{"type":"user","message":{"content":[{"type":"tool_result"}],"content":"text"}}': 'user',
      '{"type":"user","message":{"content":"text","content":[{"type":"tool_result"}]}}': 'tool-results',
      '{"type":"user","message":[{"content":[{"type":"tool_result"}]}]}': 'user',
    };
    for (const [line, kind] of Object.entries(kinds)) {
      expect(check(line), line).toBe('accepted');
      expect(readRecordHead(Buffer.from(line), 0, Buffer.byteLength(line))?.kind, line).toBe(kind);
    }
  });

  test('raw control characters, bad escapes, bad numbers and trailing text are refused', () => {
    for (const line of [
      '{"type":"user","uuid":"a\u0001"}', '{"type":"user","uuid":"a\\x"}', '{"type":"user","n":01}', '{"type":"user","n":1.}',
      '{"type":"user","n":-}', '{"type":"user"} x', '{"type":"user"}{"type":"user"}', '{"type":"user",}', '{"type":"user","a":[1,]}',
      '{"type":"user","a":tru}', '{"type":"user","uuid":"\\u12"}', '[{"type":"user"}]',
    ]) {
      expect(check(line), line).toBe('refused');
    }
  });

  test('the line is read between start and end only', () => {
    const bytes = Buffer.from('xx{"type":"user","uuid":"u"}yy');
    expect(readRecordHead(bytes, 2, bytes.length - 2)).toMatchObject({ type: 'user', uuid: 'u' });
  });
});
