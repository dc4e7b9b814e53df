// Shared by the fixture capture scripts: load the TypeScript test support (through Vite's module runner,
// so no build step is needed), make captured files machine-neutral and small, and write the golden
// generic-event files from the built adapters (dist/; run `npx tsc -p tsconfig.json` first).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Install the pinned real CLIs (test/clients/) when they are not installed yet. */
export async function installClients() {
  const { installTestClients } = await import('../test/clients/clients.mjs');
  installTestClients();
}

/** A one-pixel PNG, base64: the image every capture attaches. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Put the files every capture's project holds in `dir`: notes.txt (a call reads it) and pixel.png (attached). */
export function writeProjectFiles(dir) {
  writeFileSync(join(dir, 'notes.txt'), 'the notes say hi\n');
  writeFileSync(join(dir, 'pixel.png'), Buffer.from(PIXEL_PNG, 'base64'));
}

/** `<top>/project` (its real path), made and holding the project files. */
export function makeProject(top) {
  const project = join(realpathSync(top), 'project');
  mkdirSync(project);
  writeProjectFiles(project);
  return project;
}

/** A capture's home and project: two new directories under the system's temp directory (real paths), the project holding the project files. */
export function captureDirs(name) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), `${name}-capture-home-`)));
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), `${name}-capture-project-`)));
  writeProjectFiles(cwd);
  return { home, cwd };
}

/**
 * The turns a chat-completions mock plays first in the captures of OpenCode, Kilo and pi: reasoning, a text, a
 * call that lists the files and one that reads a missing file (`ls` and `read` arguments as that CLI's tools take
 * them); then the answer saying what is there.
 */
export function listAndReadTurns(lsArguments, readArguments) {
  return [
    [
      { reasoning: 'I will list the files and read the missing one.' },
      { text: 'Listing.' },
      { tool: { id: 'call_ls', name: 'bash', arguments: lsArguments } },
      { tool: { id: 'call_read', name: 'read', arguments: readArguments } },
    ],
    [{ text: 'There are notes.txt and pixel.png; missing.txt does not exist; the image is one pixel.' }],
  ];
}

/** Import a TypeScript module of this repository. */
export async function importTs(relative) {
  const { module } = await runnerImport(join(ROOT, relative));
  return module;
}

/**
 * Replace this machine's paths (longest first) by neutral ones and shorten huge strings (system prompts,
 * tool lists). Throws when a temp or home path survives, so no fixture ever carries one.
 */
export function sanitize(text, replacements, { maxString = 600 } = {}) {
  let out = text;
  for (const [from, to] of [...replacements].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
  const lines = out.split('\n').map((line) => {
    if (line.trim() === '') return line;
    const value = JSON.parse(line);
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'string' && v.length > maxString) return `${v.slice(0, 200)}…[trimmed]`;
      if (Array.isArray(v) && v.length > 8 && v.every((x) => typeof x === 'string')) return [...v.slice(0, 4), '…[trimmed]'];
      return v;
    });
  });
  out = lines.join('\n');
  const leak = /(?:\/tmp\/|\/work\/|\/root\/|\/private\/var\/)[^"\s]*/.exec(out);
  if (leak) throw new Error(`a machine path survived sanitizing: ${leak[0]}`);
  return out;
}

/** The timestamp given to events whose input line has none; golden files leave it out. */
export const DEFAULT_NOW = '2000-01-01T00:00:00.000Z';

/** Map a fixture through the built adapter: facts, located warnings, events (default timestamps left out). */
export async function mapFixture(format, file) {
  const { findInputFormat } = await import(join(ROOT, 'dist', 'lib', 'index.js'));
  const adapter = findInputFormat(format).create();
  const warnings = [];
  const events = [];
  // A `.json` fixture (pretty-printed, as `opencode export` prints) is one value at line 1.
  const text = readFileSync(file, 'utf8');
  (file.endsWith('.json') ? [text] : text.split('\n')).forEach((line, index) => {
    if (line.trim() === '') return;
    const warn = (message) => warnings.push(`line ${index + 1}: ${message}`);
    try {
      events.push(...adapter.map(JSON.parse(line), DEFAULT_NOW, warn));
    } catch (error) {
      warn(`rejected: ${error.message}`);
    }
  });
  events.push(...adapter.end(DEFAULT_NOW, (message) => warnings.push(`end: ${message}`)));
  const stripped = events.map((event) => (event.timestamp === DEFAULT_NOW ? { ...event, timestamp: undefined } : event))
    .map((event) => JSON.parse(JSON.stringify(event)));
  return { facts: adapter.facts(), warnings, events: stripped };
}

/** Write `<name>.events.json` beside a fixture: one event per line, so diffs stay readable. */
export async function writeGolden(format, file) {
  const { facts, warnings, events } = await mapFixture(format, file);
  const body = [
    '{',
    `  "facts": ${JSON.stringify(facts)},`,
    `  "warnings": [${warnings.map((w) => `\n    ${JSON.stringify(w)}`).join(',')}${warnings.length ? '\n  ' : ''}],`,
    `  "events": [${events.map((e) => `\n    ${JSON.stringify(e)}`).join(',')}${events.length ? '\n  ' : ''}]`,
    '}',
    '',
  ].join('\n');
  writeFileSync(file.replace(/\.jsonl?$/, '.events.json'), body);
}

/**
 * `sanitize` for one JSON document (`opencode export` prints one, pretty-printed): the same replacements,
 * trimming and leak check, written back pretty-printed with a final newline.
 */
export function sanitizeDocument(text, replacements, options) {
  const oneLine = sanitize(JSON.stringify(JSON.parse(text)), replacements, options);
  return `${JSON.stringify(JSON.parse(oneLine), null, 2)}\n`;
}
