// What `sessions` lists of a session without reading it whole: the JSON values of the whole lines in its file's
// first and last bytes (`fileEnds`), the project directory and start any agent's records say there
// (`genericFacts`), and the title an agent keeps in a record of its own (`latestTitle`, each agent's
// `SessionLookup.describe` saying which record). Nothing here reads a whole file or follows a value as a path.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { FileEnds, SessionFacts } from './types.js';
import { isObject } from '../util/is-object.js';

/** Bytes read from each end of a session file. */
export const END_BYTES = 64 * 1024;

/** The longest title or first user text a listing keeps (characters). */
export const TITLE_CHARS = 80;

/** The JSON values of the lines of `text` that parse (the first and last may be cut: they are left out by the caller). */
function values(lines: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch { /* a cut or damaged line: not a fact */ }
  }
  return out;
}

/**
 * The values of the whole lines in the first and last `bytes` of the file at `path` (a file no longer than
 * `2 * bytes` read once: its lines are the head, none the tail); none when it cannot be read. A file that is one
 * JSON document (a Gemini CLI `.json` chat) small enough is its own single value. Read synchronously: a few
 * small reads, which cost less than a round trip each to libuv's threads.
 */
export function fileEnds(path: string, bytes = END_BYTES): FileEnds {
  let fd: number | undefined;
  try {
    // Never blocking on a FIFO or device put where a session file was.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { head: [], tail: [] };
    const { size } = stat;
    if (size <= 2 * bytes) {
      const buf = Buffer.allocUnsafe(size);
      const bytesRead = readSync(fd, buf, 0, size, 0);
      const text = buf.toString('utf8', 0, bytesRead).replace(/^\ufeff/, '');
      const head = values(text.split('\n'));
      if (head.length === 0 && text.trimStart().startsWith('{')) return { head: values([text.replace(/\n/g, ' ')]), tail: [] };
      return { head, tail: [] };
    }
    const buf = Buffer.allocUnsafe(bytes);
    const headLines = buf.toString('utf8', 0, readSync(fd, buf, 0, bytes, 0)).replace(/^\ufeff/, '').split('\n');
    headLines.pop();
    const tailLines = buf.toString('utf8', 0, readSync(fd, buf, 0, bytes, size - bytes)).split('\n');
    tailLines.shift();
    return { head: values(headLines), tail: values(tailLines) };
  } catch {
    return { head: [], tail: [] };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `text` on one line, blanks squeezed, cut to `most` characters (an ellipsis where it was cut). */
export function cutText(text: string, most = TITLE_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= most ? line : `${line.slice(0, most - 1).trimEnd()}…`;
}

/** The value under `key` in `value` or in an object up to `depth` levels inside it (first found, breadth first). */
function findKey(value: unknown, keys: readonly string[], depth: number, accept: (found: unknown) => boolean): unknown {
  let level: unknown[] = [value];
  for (let d = 0; d <= depth && level.length > 0; d++) {
    const next: unknown[] = [];
    for (const item of level) {
      if (!isObject(item)) continue;
      for (const key of keys) if (accept(item[key])) return item[key];
      for (const inner of Object.values(item)) if (isObject(inner)) next.push(inner);
    }
    level = next;
  }
  return undefined;
}

const isPath = (v: unknown): boolean => typeof v === 'string' && v.startsWith('/') && v.length < 4096;
const isTime = (v: unknown): boolean => (typeof v === 'string' && !Number.isNaN(Date.parse(v)))
  || (typeof v === 'number' && v > 1e12 && v < 1e14);

/** A time as RFC 3339 (a string parsed, a number as ms since the epoch); undefined when it is none. */
export function isoTime(v: unknown): string | undefined {
  if (!isTime(v)) return undefined;
  return new Date(typeof v === 'number' ? v : Date.parse(v as string)).toISOString();
}

/**
 * What any agent's records say in a file's head: the first absolute `cwd` (or `directory`) of a record or an
 * object inside one, and the first time a record carries (`timestamp`, `startTime`, `created_at`, ...).
 */
export function genericFacts(ends: FileEnds): SessionFacts {
  const facts: SessionFacts = {};
  for (const value of ends.head) {
    facts.cwd ??= findKey(value, ['cwd', 'directory'], 3, isPath) as string | undefined;
    if (facts.started === undefined) {
      const time = findKey(value, ['timestamp', 'startTime', 'created_at', 'createdAt', 'time'], 2, isTime);
      if (time !== undefined) facts.started = isoTime(time);
    }
    if (facts.cwd !== undefined && facts.started !== undefined) break;
  }
  return facts;
}

/** The last title `pick` finds in the values of a file's head and end (the later record wins), cut; or undefined. */
export function latestTitle(ends: FileEnds, pick: (record: Record<string, unknown>) => unknown): string | undefined {
  let title: string | undefined;
  for (const value of [...ends.head, ...ends.tail]) {
    const found = isObject(value) ? pick(value) : undefined;
    if (typeof found === 'string' && found.trim() !== '') title = found;
  }
  return title === undefined ? undefined : cutText(title);
}
