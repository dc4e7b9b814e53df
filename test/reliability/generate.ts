// Seeded generators of hostile filter input: valid generic events that each carry a unique marker (so the
// transcript tells which were written, in which order), and bad lines of every kind the brief names
// (random bytes, truncated and mutated events, invalid UTF-8, raw and escaped lone surrogates, NUL bytes,
// huge numbers, prototype keys), each labelled with what the filter must do with it.
import type { Rng } from './support.js';

/** What the filter must do with one input line. */
export type Expect =
  /** Written, no diagnostic. */
  | 'written'
  /** Written, and exactly one diagnostic for its line (invalid UTF-8 replaced). */
  | 'written-noted'
  /** Skipped, with exactly one diagnostic for its line. */
  | 'bad'
  /** Blank: skipped silently (no line of its own on stderr). */
  | 'blank';

export interface GeneratedLine {
  bytes: Buffer;
  expect: Expect;
  /** Markers of the records this line writes, in order (`written*` only). */
  markers: string[];
  kind: string;
}

/** Markers look like `@@12@@`; generated text never holds `@`. */
export const MARKER = /@@(\d+)@@/g;

const TEXT_ALPHABET = [
  'a', 'b', 'z', ' ', '0', '9', '"', '\\', '/', '\n', '\t', '\r', '{', '}', '[', ']', ',', ':', '\u0000', '\u001f',
  'é', '€', 'ß', '中', '😀', '\u2028', '\u2029', '\ufeff', '\ud800', '\udfff', '\ud83d', '\uffff', '<', '>', '&',
];

/** Random text for string fields: JSON specials, control characters, astral and lone surrogates. */
export function randomText(rng: Rng, max = 40): string {
  let text = '';
  const n = rng.int(max);
  for (let i = 0; i < n; i += 1) text += rng.pick(TEXT_ALPHABET);
  return text;
}

const HUGE_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '9007199254740993', '0.1e1', '1E+308'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', ''];

/** A random JSON value (as text), shallow, with hostile keys and huge numbers. */
function randomJson(rng: Rng, depth: number): string {
  const roll = rng.int(depth > 3 ? 4 : 7);
  switch (roll) {
    case 0: return JSON.stringify(randomText(rng, 12));
    case 1: return rng.pick(HUGE_NUMBERS);
    case 2: return rng.pick(['true', 'false', 'null', '0', '-1.5']);
    case 3: return String(rng.int(1000));
    case 4:
    case 5: {
      const keys = Array.from({ length: rng.int(4) }, () => (rng.chance(0.4) ? rng.pick(HOSTILE_KEYS) : randomText(rng, 6)));
      return `{${keys.map((k) => `${JSON.stringify(k)}:${randomJson(rng, depth + 1)}`).join(',')}}`;
    }
    default:
      return `[${Array.from({ length: rng.int(4) }, () => randomJson(rng, depth + 1)).join(',')}]`;
  }
}

/** A random JSON object (as text) for tool arguments or usage. */
function randomObject(rng: Rng): string {
  const keys = Array.from({ length: rng.between(1, 4) }, () => (rng.chance(0.4) ? rng.pick(HOSTILE_KEYS) : randomText(rng, 6)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${randomJson(rng, 1)}`).join(',')}}`;
}

/** A random usage (as text): hostile keys, but each number a valid token count (a bad one is a diagnostic of its own). */
function randomUsage(rng: Rng): string {
  const keys = Array.from({ length: rng.between(1, 4) }, () => (rng.chance(0.4) ? rng.pick(HOSTILE_KEYS) : randomText(rng, 6)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${rng.chance(0.5) ? rng.int(1_000_000) : JSON.stringify(randomText(rng, 6))}`).join(',')}}`;
}

/** Escape every non-ASCII character as \uXXXX (a valid, different spelling of the same JSON). */
function asciiOnly(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Sprinkle JSON whitespace (including a lone CR) after some structural characters. */
function loosen(rng: Rng, json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json[i]!;
    out += c;
    if (inString && c === '\\') {
      i += 1;
      out += json[i]!;
    } else if (c === '"') inString = !inString;
    else if (!inString && (c === ',' || c === ':' || c === '{') && rng.chance(0.2)) out += rng.pick([' ', '\t', '\r', '  ']);
  }
  return out;
}

/** Kinds whose first string after the marker is free text (not an id), where junk bytes may go. */
const TEXT_KINDS = new Set(['user', 'User enum', 'assistant', 'thinking', 'monitor_event', 'user with prototype keys']);

/** The generator state: a counter for markers and the tool calls waiting for their results. */
export class EventGenerator {
  private next = 1;
  private openCalls: string[] = [];
  readonly tool: string[] = [];

  constructor(private readonly rng: Rng) {}

  private marker(): string {
    const m = `@@${this.next}@@`;
    this.next += 1;
    return m;
  }

  /** One valid event line (JSON text) and the markers of the records it writes. */
  valid(): { json: string; markers: string[]; kind: string } {
    const rng = this.rng;
    // A result for a call made earlier, so no result is ever an orphan (orphans are noted on stderr).
    if (this.openCalls.length > 0 && rng.chance(0.5)) {
      const id = this.openCalls.shift()!;
      const content = rng.chance(0.5)
        ? JSON.stringify(`${id} ${randomText(rng)}`)
        : JSON.stringify([{ type: 'text', text: `${id} ${randomText(rng)}` }]);
      return { json: `{"type":"tool_result","id":${JSON.stringify(id)},"content":${content}${rng.chance(0.3) ? ',"is_error":true' : ''}}`, markers: [id], kind: 'tool_result' };
    }
    const m = this.marker();
    const text = `${m}${randomText(rng)}`;
    const ts = rng.chance(0.3) ? `,"timestamp":${rng.pick(['"2026-01-02T03:04:05Z"', '1767322800000', '"2026-01-02 03:04:05.123+01:00"'])}` : '';
    switch (rng.int(7)) {
      case 0:
        return { json: `{"type":"user","text":${JSON.stringify(text)}${ts}}`, markers: [m], kind: 'user' };
      case 1:
        return { json: `{"User":{"text":${JSON.stringify(text)}}}`, markers: [m], kind: 'User enum' };
      case 2:
        return {
          json: `{"type":"assistant","text":${JSON.stringify(text)},"model":"claude-sonnet-4-5-20250929","usage":${randomUsage(rng)}${ts}}`,
          markers: [m], kind: 'assistant',
        };
      case 3: {
        this.openCalls.push(m);
        return { json: `{"type":"tool_call","id":${JSON.stringify(m)},"name":"Bash","arguments":${randomObject(rng)}${ts}}`, markers: [m], kind: 'tool_call' };
      }
      case 4:
        return { json: `{"type":"thinking","text":${JSON.stringify(text)},"signature":"sig-${rng.int(1e9)}"}`, markers: [m], kind: 'thinking' };
      case 5:
        return { json: `{"type":"monitor_event","event":${JSON.stringify(text)},"description":"fuzz"}`, markers: [m], kind: 'monitor_event' };
      default:
        return { json: `{"type":"user","text":${JSON.stringify(text)},"__proto__":{"images":[1]},"constructor":{"prototype":{"x":1}}}`, markers: [m], kind: 'user with prototype keys' };
    }
  }

  /** A valid line in some spelling: ASCII-escaped, loosened, with raw invalid UTF-8 in a string. */
  validLine(): GeneratedLine {
    const rng = this.rng;
    const { json, markers, kind } = this.valid();
    let text = json;
    if (rng.chance(0.3)) text = asciiOnly(text);
    if (rng.chance(0.3)) text = loosen(rng, text);
    let bytes = Buffer.from(text, 'utf8');
    if (TEXT_KINDS.has(kind) && rng.chance(0.15)) {
      // Raw bytes that are not UTF-8, inside the first string after the marker: the line stays valid JSON
      // once they are replaced by U+FFFD, and is written with one note.
      const at = text.indexOf('@@', text.indexOf('@@') + 2) + 2;
      if (at > 1) {
        const head = Buffer.from(text.slice(0, at), 'utf8');
        const tail = Buffer.from(text.slice(at), 'utf8');
        const junk = Buffer.from(rng.pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]));
        bytes = Buffer.concat([head, junk, tail]);
        return { bytes, expect: 'written-noted', markers, kind: `${kind} with invalid UTF-8` };
      }
    }
    return { bytes, expect: 'written', markers, kind };
  }

  /** A line the filter must reject with exactly one diagnostic. */
  badLine(): GeneratedLine {
    const rng = this.rng;
    const bad = (bytes: Buffer, kind: string): GeneratedLine => ({ bytes, expect: 'bad', markers: [], kind });
    // Valid events to damage: generated with a throwaway generator so the real marker sequence is untouched.
    const sample = () => new EventGenerator(rng).valid().json.replace(/@@/g, '##');
    for (;;) {
      switch (rng.int(12)) {
        case 0: {
          const bytes = rng.bytes(rng.between(1, 120)).map((b) => (b === 10 ? 32 : b));
          if (isBlankOrValid(bytes)) continue;
          return bad(Buffer.from(bytes), 'random bytes');
        }
        case 1: {
          const json = sample();
          const bytes = Buffer.from(json.slice(0, rng.between(1, json.length - 1)), 'utf8');
          if (isBlankOrValid(bytes)) continue;
          return bad(bytes, 'truncated event');
        }
        case 2: {
          const bytes = Buffer.from(sample(), 'utf8');
          for (let i = rng.between(1, 3); i > 0; i -= 1) {
            const b = rng.int(256);
            bytes[rng.int(bytes.length)] = b === 10 ? 0 : b;
          }
          if (isBlankOrValid(bytes)) continue;
          return bad(bytes, 'mutated event');
        }
        case 3: {
          // Not UTF-8 and not JSON: still one diagnostic for the line.
          const bytes = Buffer.concat([Buffer.from('{"type":"user","text":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"')]);
          return bad(bytes, 'invalid UTF-8 in invalid JSON');
        }
        case 4:
          return bad(Buffer.concat([Buffer.from('{"type":"user","text":"a'), Buffer.from([0]), Buffer.from('b"}')]), 'raw NUL in a string');
        case 5:
          return bad(Buffer.from(rng.pick([
            '{"type":"mystery"}', '{"type":"user"}', '{"type":"user","text":42}', '{"type":"tool_call","id":"x"}',
            '{"type":"tool_call","id":"x","name":"y","arguments":"not json"}', '{"type":"tool_result","id":""}',
            '{"__proto__":{"type":"user","text":"x"}}', '{"constructor":{"type":"user"}}', '[1,2,3]', '"text"', 'null',
            '123456789012345678901234567890', '1e400', '{"type":"user","text":"x","timestamp":1e400}',
            '{"type":"user","text":"x","timestamp":"not a time"}', '{"type":"monitor_end","exit_code":1.5}',
            '{"type":["user"]}', '{"Assistant":[]}', '{"type":"user","images":"no"}', '{"type":"toString"}',
            '{"type":"__proto__"}', '{"type":"constructor","text":"x"}', '{"type":"hasOwnProperty"}',
          ]), 'utf8'), 'valid JSON, invalid event');
        case 6:
          return bad(Buffer.from(`${'['.repeat(rng.between(1000, 20000))}`), 'unclosed nesting');
        case 7:
          return bad(Buffer.from(`{"type":"user","text":"\\ud800\\x"}`), 'bad escape after a lone surrogate');
        case 8:
          return bad(Buffer.concat([Buffer.from([0]), Buffer.from(sample())]), 'NUL before an event');
        case 9:
          return bad(Buffer.from(`${sample()}${sample()}`), 'two events on one line');
        case 10:
          return bad(Buffer.from(`${sample()} trailing`), 'trailing garbage');
        default:
          return bad(Buffer.from(`{"type":"user","text":"${'x'.repeat(rng.between(1, 2000))}`), 'unterminated string');
      }
    }
  }

  /** A blank line: spaces, tabs, a lone CR. */
  blankLine(): GeneratedLine {
    return { bytes: Buffer.from(this.rng.pick(['', ' ', '\t', '   \t ', '\r'])), expect: 'blank', markers: [], kind: 'blank' };
  }

  /** Results for calls still open, so the stream ends with none dangling. */
  closing(): GeneratedLine[] {
    const out: GeneratedLine[] = [];
    while (this.openCalls.length > 0) {
      const id = this.openCalls.shift()!;
      out.push({ bytes: Buffer.from(`{"type":"tool_result","id":${JSON.stringify(id)},"content":"done"}`), expect: 'written', markers: [id], kind: 'tool_result' });
    }
    return out;
  }
}

/** True when the bytes are blank once decoded, or happen to be a JSON value (then they are not surely bad). */
function isBlankOrValid(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes).toString('utf8').replace(/\r$/, '').replace(/^\ufeff/, '');
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A whole input: lines with random endings (LF, CRLF), maybe no final newline, in random chunk sizes. */
export interface GeneratedInput {
  data: Buffer;
  lines: GeneratedLine[];
  /** Chunk sizes to feed the input in. */
  chunks: number[];
}

export function generateInput(rng: Rng, count: number, badRatio = 0.3): GeneratedInput {
  const gen = new EventGenerator(rng);
  const lines: GeneratedLine[] = [gen.validLine()];
  // The first line is a plain valid event so that format detection (`--from auto`) picks generic events.
  while (lines[0]!.expect !== 'written') lines[0] = gen.validLine();
  for (let i = 1; i < count; i += 1) {
    const roll = rng.next();
    lines.push(roll < badRatio ? gen.badLine() : roll < badRatio + 0.05 ? gen.blankLine() : gen.validLine());
  }
  lines.push(...gen.closing());
  const parts: Buffer[] = [];
  lines.forEach((line, index) => {
    parts.push(line.bytes);
    const last = index === lines.length - 1;
    if (!last || rng.chance(0.5)) parts.push(Buffer.from(rng.chance(0.3) ? '\r\n' : '\n'));
  });
  const data = Buffer.concat(parts);
  const chunks: number[] = [];
  for (let total = 0; total < data.length;) {
    const size = rng.pick([1, 2, 3, 7, 64, 1000, 4096, 65536]);
    chunks.push(size);
    total += size;
  }
  return { data, lines, chunks };
}
