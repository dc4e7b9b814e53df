// A deterministic tree of Claude Code transcripts for the usage benchmark (`read --usage` against ccusage):
// `<root>/projects/<project>/<session>.jsonl`, each file about the size asked for, written as Claude Code
// writes: one assistant record per content block (thinking, text, tool_use), every block of a response
// repeating its message.id, requestId and usage (the last block's output count the largest, as a streamed
// response reports it), one user record per tool result (with toolUseResult beside it), and the odd state
// record. Message ids are unique across the tree. Cached: a tree with the same options is reused.
// `node bench/transcripts.mjs --out DIR [--files N] [--mb M] [--min-mb m] [--huge-result-mb H] [--seed S]`.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync, renameSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRandom } from './generate.mjs';

/** Bumped whenever the output for the same options changes: cached trees are regenerated. */
export const TREE_VERSION = 2;

const WORDS = ['the', 'file', 'function', 'return', 'value', 'test', 'error', 'build', 'module', 'import', 'const',
  'await', 'stream', 'buffer', 'session', 'record', 'line', 'chunk', 'parse', 'write', 'read', 'config', 'src'];
const FOREIGN = ['café', 'Größe', 'Привет', '日本語', 'テスト', '🙂', '→', '…', '€'];
const PUNCT = [' ', ' ', ' ', ' ', ', ', '. ', ': ', ' "', '" ', '(', ') ', ' = ', '\\', '/', '\t', '\n', '\n', ' {', '} '];
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001'];

function reservoir(random, chars) {
  const parts = [];
  let length = 0;
  while (length < chars) {
    let piece = random.pick(random.chance(0.06) ? FOREIGN : WORDS) + random.pick(PUNCT);
    if (random.chance(0.003)) piece = `\u001b[3${random.int(1, 7)}m${piece}\u001b[0m`;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('');
}

const hex = (random, n) => {
  let out = '';
  for (let i = 0; i < n; i += 1) out += Math.floor(random.next() * 16).toString(16);
  return out;
};
const uuid = (random) => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;

/**
 * The lines of one transcript of about `bytes` bytes (with newlines), in order. `fileNo` makes its ids unique.
 */
export function* transcriptLines({ bytes, seed, fileNo, sessionId, cwd, hugeResultBytes = 0 }) {
  const random = createRandom(seed * 7919 + fileNo);
  const pool = reservoir(random, 1 << 20);
  const text = (chars) => {
    let out = '';
    while (out.length < chars) {
      const want = Math.min(chars - out.length, pool.length - 2);
      let start = random.int(0, pool.length - want - 2);
      if (pool.charCodeAt(start) >= 0xdc00 && pool.charCodeAt(start) <= 0xdfff) start += 1;
      let end = start + want;
      if (pool.charCodeAt(end) >= 0xdc00 && pool.charCodeAt(end) <= 0xdfff) end += 1;
      out += pool.slice(start, end);
    }
    return out;
  };
  const shortChars = () => (random.chance(0.85) ? random.int(20, 300) : random.int(300, 2000));
  // One tool result of `hugeResultBytes` (the realistic corpus's 30 MB one), about halfway through the file.
  let huge = hugeResultBytes;
  const resultChars = () => {
    if (huge > 0 && written > bytes / 2) {
      const chars = huge;
      huge = 0;
      return chars;
    }
    const r = random.next();
    if (r < 0.0004) return random.int(1_000_000, 2_000_000);
    if (r < 0.03) return random.int(8_000, 60_000);
    return shortChars();
  };
  let clock = Date.UTC(2026, 1, 1, 8, 0, 0) + fileNo * 86_400_000;
  const stamp = () => new Date((clock += random.int(5, 3000))).toISOString();
  const envelope = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.328', gitBranch: 'main' };
  let parent = null;
  let written = 0;
  let response = 0;
  const record = (fields) => {
    const id = uuid(random);
    const line = JSON.stringify({ parentUuid: parent, ...envelope, ...fields, uuid: id, timestamp: stamp() });
    parent = id;
    written += Buffer.byteLength(line) + 1;
    return line;
  };
  while (written < bytes) {
    yield record({ type: 'user', message: { role: 'user', content: text(shortChars()) } });
    const steps = random.int(1, 6);
    for (let s = 0; s < steps && written < bytes; s += 1) {
      response += 1;
      const id = `msg_bench${String(fileNo).padStart(3, '0')}${response.toString(36).padStart(10, '0')}`;
      const requestId = `req_bench${String(fileNo).padStart(3, '0')}${response.toString(36).padStart(10, '0')}`;
      const model = random.pick(MODELS);
      const created = random.chance(0.3) ? random.int(0, 20_000) : 0;
      const usage = {
        input_tokens: random.int(1, 5000), cache_creation_input_tokens: created,
        cache_read_input_tokens: random.int(0, 150_000),
        cache_creation: { ephemeral_5m_input_tokens: created, ephemeral_1h_input_tokens: 0 },
        output_tokens: random.int(1, 40), service_tier: 'standard',
      };
      const blocks = [];
      if (random.chance(0.35)) blocks.push({ type: 'thinking', thinking: text(shortChars()), signature: hex(random, 200) });
      if (random.chance(0.7)) blocks.push({ type: 'text', text: text(shortChars()) });
      const calls = random.chance(0.9) ? random.int(1, 3) : 0;
      const callIds = [];
      for (let c = 0; c < calls; c += 1) {
        const callId = `toolu_bench${String(fileNo).padStart(3, '0')}${response.toString(36)}x${c}`;
        callIds.push(callId);
        blocks.push({ type: 'tool_use', id: callId, name: 'Bash', input: { command: text(random.int(10, 200)), description: text(random.int(0, 60)) } });
      }
      if (blocks.length === 0) blocks.push({ type: 'text', text: text(shortChars()) });
      for (const [b, block] of blocks.entries()) {
        // A streamed response: the last block's record carries the final output count.
        const final = b === blocks.length - 1 ? { ...usage, output_tokens: usage.output_tokens + random.int(0, 4000) } : usage;
        yield record({
          type: 'assistant', requestId,
          message: {
            model, id, type: 'message', role: 'assistant', content: [block],
            stop_reason: b === blocks.length - 1 ? (calls > 0 ? 'tool_use' : 'end_turn') : null, stop_sequence: null, usage: final,
          },
        });
      }
      for (const callId of callIds) {
        const output = text(resultChars());
        yield record({
          type: 'user',
          message: { role: 'user', content: [{ tool_use_id: callId, type: 'tool_result', content: output, is_error: false }] },
          toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
        });
      }
    }
    if (random.chance(0.2)) {
      yield JSON.stringify({ type: 'file-history-snapshot', messageId: uuid(random), snapshot: { trackedFileBackups: {}, timestamp: stamp() }, isSnapshotUpdate: false });
    }
    if (random.chance(0.1)) yield JSON.stringify({ type: 'last-prompt', lastPrompt: text(40), leafUuid: parent, sessionId });
  }
}

/**
 * Write the tree under `dir` unless the same one is there (per `<dir>.json`). Returns its manifest:
 * `{root, files: [paths], bytes, lines}` (the root is what CLAUDE_CONFIG_DIR points at).
 */
export function generateTree(dir, { files, mb, seed = 1, minMb, hugeResultMb = 0 }) {
  dir = resolve(dir);
  const key = JSON.stringify({ version: TREE_VERSION, files, mb, seed, minMb, ...(hugeResultMb ? { hugeResultMb } : {}) });
  const manifestPath = `${dir}.json`;
  // The manifest names the files relative to the tree: a tree can be moved.
  const absolute = (manifest) => ({ ...manifest, root: dir, files: manifest.files.map((f) => join(dir, f)) });
  if (existsSync(dir) && existsSync(manifestPath)) {
    try {
      const manifest = absolute(JSON.parse(readFileSync(manifestPath, 'utf8')));
      if (manifest.key === key && manifest.files.every((f) => existsSync(f))) return manifest;
    } catch {
      // A damaged manifest: regenerate.
    }
  }
  rmSync(dir, { recursive: true, force: true });
  // With minMb, each file's size is drawn between minMb and mb on a log scale leaning to the small end (u^1.8:
  // 1,000 files of 0.05-20 MB come to about 2 GB, the realistic corpus of issue 35).
  const sizeOf = (random) => Math.round(1e6 * (minMb === undefined ? mb : minMb * (mb / minMb) ** (random.next() ** 1.8)));
  const out = { key, files: [], bytes: 0, lines: 0 };
  for (let fileNo = 0; fileNo < files; fileNo += 1) {
    const random = createRandom(seed * 104_729 + fileNo);
    const project = join(dir, 'projects', `-bench-project-${fileNo % 4}`);
    mkdirSync(project, { recursive: true });
    const sessionId = uuid(random);
    const bytes = sizeOf(random);
    const path = join(project, `${sessionId}.jsonl`);
    const partial = `${path}.partial`;
    const fd = openSync(partial, 'w', 0o600);
    let batch = [];
    let chars = 0;
    const spill = () => {
      const buf = Buffer.from(batch.join(''));
      writeSync(fd, buf);
      out.bytes += buf.length;
      batch = [];
      chars = 0;
    };
    try {
      for (const line of transcriptLines({
        bytes, seed, fileNo, sessionId, cwd: `/bench/project-${fileNo % 4}`, hugeResultBytes: Math.round(hugeResultMb * 1e6),
      })) {
        batch.push(line, '\n');
        chars += line.length + 1;
        out.lines += 1;
        if (chars > 1 << 20) spill();
      }
      spill();
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
    out.files.push(relative(dir, path));
  }
  writeFileSync(manifestPath, `${JSON.stringify(out)}\n`);
  return absolute(out);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' }, files: { type: 'string', default: '20' }, mb: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' }, 'min-mb': { type: 'string' }, 'huge-result-mb': { type: 'string', default: '0' },
    },
  });
  if (!values.out) {
    process.stderr.write('usage: node bench/transcripts.mjs --out DIR [--files N] [--mb M] [--min-mb m] [--huge-result-mb H] [--seed S]\n');
    process.exit(2);
  }
  const manifest = generateTree(values.out, {
    files: Number(values.files), mb: Number(values.mb), seed: Number(values.seed),
    ...(values['min-mb'] !== undefined ? { minMb: Number(values['min-mb']) } : {}), hugeResultMb: Number(values['huge-result-mb']),
  });
  process.stdout.write(`${JSON.stringify({ root: manifest.root, files: manifest.files.length, bytes: manifest.bytes, lines: manifest.lines })}\n`);
}
