// Deterministic benchmark corpora of generic events (seeded PRNG, no dependency): a conversation of user,
// assistant (with usage), signed thinking, tool_call/tool_result pairs and monitor events, with long-tailed
// sizes (most lines 50-500 bytes, some tool results of 10-200 KB, a few of about 2 MB), non-ASCII text and
// JSON escapes. `node bench/generate.mjs --events N --out FILE [--seed S] [--single-mb M]`.
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Bumped whenever the output for the same options changes: cached corpora are regenerated. */
export const GENERATOR_VERSION = 1;

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG; the same seed always gives the same corpus. */
export function createRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

const WORDS = [
  'the', 'file', 'function', 'return', 'value', 'test', 'error', 'build', 'module', 'import', 'const', 'async',
  'await', 'stream', 'buffer', 'session', 'record', 'transcript', 'harness', 'event', 'line', 'chunk', 'parse',
  'write', 'read', 'config', 'project', 'directory', 'package', 'version', 'node', 'index', 'src', 'lib', 'main',
];
/** About one word in twelve is not ASCII (3- and 4-byte UTF-8 included). */
const FOREIGN_WORDS = [
  'café', 'naïve', 'déjà', 'Größe', 'año', 'Привет', 'мир', '日本語', 'テスト', '中文', '한국어', 'Ελληνικά', 'עברית',
  'العربية', '🙂', '🚀', '✓', '→', '…', '€', 'λ', 'π',
];
const PUNCT = [' ', ' ', ' ', ' ', ' ', ' ', ', ', '. ', ': ', ' "', '" ', ' \'', '(', ') ', ' = ', '\\', '/', '\t', '\n', '\n', ' {', '} ', ' `', '` '];
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001'];
const TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Glob', 'WebFetch'];
const MONITORS = ['npm run watch', 'tail -f server.log', 'pytest --looponfail'];

/** A reservoir of text that slices are cut from: making text by slicing is as fast as the corpus is big. */
function makeReservoir(random, chars) {
  const parts = [];
  let length = 0;
  while (length < chars) {
    let piece = random.pick(random.chance(0.08) ? FOREIGN_WORDS : WORDS) + random.pick(PUNCT);
    // Tool output carries terminal colours and the odd control character: JSON escapes them as \u00XX.
    if (random.chance(0.004)) piece = `\u001b[3${random.int(1, 7)}m${piece}\u001b[0m`;
    if (random.chance(0.001)) piece += '\u0000\u0007\r';
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('');
}

function isLowSurrogate(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Escape every non-ASCII character as \uXXXX (as some JSON writers do), keeping the JSON value the same. */
function asciiOnly(json) {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The event lines of one corpus (without newlines), in order.
 * @param {{events: number, seed?: number, tail?: boolean, singleBytes?: number}} options
 *   `tail: false` keeps every text short (no 10 KB+ tool results); `singleBytes` makes the corpus one tool
 *   call and one tool result of about that many bytes.
 */
export function* eventLines(options) {
  const random = createRandom(options.seed ?? 1);
  const reservoir = makeReservoir(random, 4 * 1024 * 1024);
  const text = (chars) => {
    if (chars <= 0) return '';
    let out = '';
    while (out.length < chars) {
      const want = Math.min(chars - out.length, reservoir.length - 1);
      let start = random.int(0, reservoir.length - want - 1);
      if (isLowSurrogate(reservoir.charCodeAt(start))) start += 1;
      let end = start + want;
      if (isLowSurrogate(reservoir.charCodeAt(end))) end += 1;
      out += reservoir.slice(start, end);
    }
    return out;
  };
  let clock = Date.UTC(2026, 0, 15, 9, 0, 0);
  const stamp = () => {
    clock += random.int(1, 4000);
    return new Date(clock).toISOString();
  };
  // Half the events carry a timestamp (converted logs do, live agents often do not).
  const line = (event) => {
    if (random.chance(0.5)) event.timestamp = stamp();
    const json = JSON.stringify(event);
    return random.chance(0.05) ? asciiOnly(json) : json;
  };
  // Most texts are short (the line stays under 500 bytes), the rest up to a couple of KB.
  const shortChars = () => (random.chance(0.9) ? random.int(15, 210) : random.int(210, 900));
  const resultChars = () => {
    if (options.tail === false) return shortChars();
    const r = random.next();
    if (r < 0.00009) return random.int(1_800_000, 2_000_000);
    if (r < 0.0053) return random.int(9_000, 180_000);
    return shortChars();
  };

  if (options.singleBytes !== undefined) {
    yield line({ type: 'tool_call', id: 'toolu_bench_single', name: 'Bash', arguments: { command: 'cat big.log' } });
    // Cut the text so the line is about `singleBytes` long (non-ASCII and escapes make bytes exceed chars).
    let content = text(options.singleBytes);
    const bytes = Buffer.byteLength(JSON.stringify(content));
    let cut = Math.floor(content.length * (options.singleBytes / bytes));
    if (isLowSurrogate(content.charCodeAt(cut))) cut -= 1;
    content = content.slice(0, cut);
    yield line({ type: 'tool_result', id: 'toolu_bench_single', content });
    return;
  }

  let emitted = 0;
  let callNo = 0;
  while (emitted < options.events) {
    // One turn: a user message, then assistant-side events and tool round trips, with the odd monitor line.
    const turn = [];
    turn.push({ type: 'user', text: text(shortChars()) });
    const steps = random.int(1, 6);
    for (let s = 0; s < steps; s += 1) {
      if (random.chance(0.35)) {
        turn.push({ type: 'thinking', text: text(shortChars()), signature: Buffer.from(text(random.int(60, 160))).toString('base64') });
      }
      if (random.chance(0.7)) {
        turn.push({
          type: 'assistant', text: text(shortChars()), model: random.pick(MODELS),
          usage: { input_tokens: random.int(10, 200_000), output_tokens: random.int(1, 8000), cache_read_input_tokens: random.int(0, 150_000) },
        });
      }
      if (random.chance(0.9)) {
        callNo += 1;
        const id = `toolu_bench_${callNo.toString(36).padStart(8, '0')}`;
        turn.push({ type: 'tool_call', id, name: random.pick(TOOLS), arguments: { command: text(random.int(10, 200)), description: text(random.int(0, 60)) } });
        if (random.chance(0.15)) turn.push({ type: 'monitor_event', event: text(random.int(20, 200)), description: random.pick(MONITORS) });
        turn.push({ type: 'tool_result', id, content: text(resultChars()), is_error: random.chance(0.05) });
      }
    }
    for (const event of turn) {
      if (emitted >= options.events) break;
      // Never cut a pair: a tool_call always gets its result, even when that overshoots by one.
      if (event.type === 'tool_call' && emitted + 1 >= options.events) break;
      yield line(event);
      emitted += 1;
    }
  }
}

/**
 * Write a corpus to `out` unless an identical one is there (same options and generator version, per the
 * `<out>.json` manifest). Returns the manifest: `{events, bytes, ...options}`.
 */
export function generateCorpus(out, options) {
  const key = JSON.stringify({ version: GENERATOR_VERSION, ...options });
  const manifestPath = `${out}.json`;
  if (existsSync(out) && existsSync(manifestPath)) {
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (manifest.key === key) return manifest;
    } catch {
      // A damaged manifest: regenerate.
    }
  }
  const partial = `${out}.partial`;
  const fd = openSync(partial, 'w');
  let events = 0;
  let bytes = 0;
  let batch = [];
  let batchChars = 0;
  const spill = () => {
    const buf = Buffer.from(batch.join(''));
    writeSync(fd, buf);
    bytes += buf.length;
    batch = [];
    batchChars = 0;
  };
  try {
    for (const json of eventLines(options)) {
      batch.push(json, '\n');
      batchChars += json.length + 1;
      events += 1;
      if (batchChars > 1 << 20) spill();
    }
    spill();
  } finally {
    closeSync(fd);
  }
  renameSync(partial, out);
  const manifest = { key, events, bytes, ...options };
  writeFileSync(manifestPath, `${JSON.stringify(manifest)}\n`);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      'single-mb': { type: 'string' },
      'no-tail': { type: 'boolean', default: false },
    },
  });
  if (!values.out) {
    process.stderr.write('usage: node bench/generate.mjs --out FILE [--events N] [--seed S] [--single-mb M] [--no-tail]\n');
    process.exit(2);
  }
  const options = values['single-mb'] !== undefined
    ? { events: 2, seed: Number(values.seed), singleBytes: Math.round(Number(values['single-mb']) * 1024 * 1024) }
    : { events: Number(values.events), seed: Number(values.seed), ...(values['no-tail'] ? { tail: false } : {}) };
  const manifest = generateCorpus(values.out, options);
  process.stdout.write(`${JSON.stringify({ out: values.out, events: manifest.events, bytes: manifest.bytes })}\n`);
}
