// The pieces agents' session lookups share (`Agent.sessions`, `read <id>`, `convert <id>`): the shape of a uuid or a
// prefix of one, a directory's names (none when it cannot be listed), a file's first line, and the files found
// grouped by session. Nothing here reads a whole file, and a looked-up value is only ever compared with names.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { FoundSession } from './types.js';

/** The fewest characters of an id `read` and `convert` look up as a prefix. */
export const MIN_PREFIX = 8;

/** A session uuid, or a prefix of one of MIN_PREFIX characters or more. */
export const UUID_PREFIX = /^[0-9a-f-]{8,36}$/i;

/** Whether `id` starts with `prefix`, letters of any case (uuids are written in lower case, typed in either). */
export function startsWithId(id: string, prefix: string): boolean {
  return id.toLowerCase().startsWith(prefix.toLowerCase());
}

/** The names in directory `dir` of the kind asked (files, or directories), sorted; none when it cannot be listed. */
export async function namesIn(dir: string, kind: 'file' | 'dir'): Promise<string[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (kind === 'file' ? e.isFile() : e.isDirectory())).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** The value of the first non-blank line of the file at `path` (read no further than `most` bytes), or undefined. */
export async function firstLineValue(path: string, most = 64 * 1024): Promise<unknown> {
  let file;
  try {
    file = await fsp.open(path, 'r');
    const buf = Buffer.alloc(most);
    const { bytesRead } = await file.read(buf, 0, most, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8').replace(/^\ufeff/, '');
    const line = text.split('\n').find((l) => l.trim() !== '');
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  } finally {
    await file?.close();
  }
}

/** Files found as `[id, path]`, grouped by id in the order first found, each session's files in that order. */
export function grouped(found: Iterable<readonly [string, string]>): FoundSession[] {
  const byId = new Map<string, string[]>();
  for (const [id, path] of found) {
    const files = byId.get(id);
    if (files === undefined) byId.set(id, [path]);
    else files.push(path);
  }
  return [...byId].map(([id, files]) => ({ id, files }));
}

/** `join(dir, name)` of every file in `dir` whose name `idOf` gives an id starting with `prefix`, as `[id, path]`. */
export async function filesById(dir: string, prefix: string, idOf: (name: string) => string | undefined): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const name of await namesIn(dir, 'file')) {
    const id = idOf(name);
    if (id !== undefined && startsWithId(id, prefix)) out.push([id, join(dir, name)]);
  }
  return out;
}
