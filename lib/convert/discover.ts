// Which files a batch conversion reads: named files as they are (symlinks followed), directories walked
// recursively in name order (regular `.jsonl`/`.ndjson`/`.json` files only, symlinks inside not followed,
// the convert manifest directory left out). An agent's session store (a directory holding OpenCode's
// opencode.db, or the database named) is listed as a store, its sessions read later (stores.ts); its
// directory is not walked. Listing only: no file is read here but the first bytes of a store's database.
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { MANIFEST_DIR } from './manifest.js';
import { locateStore, type StoreAgent } from '../agents/index.js';
import { cannotBeRead, notRegularFile } from '../util/fs-errors.js';

/** File name endings a directory walk takes; a file named on the command line is read whatever its name. */
export const LOG_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson', '.json'];

/** One file to convert. */
export interface Source {
  /** The path as the user spelled it: the argument, joined with the path found under it. */
  path: string;
  /** Canonical absolute path (symlinks of the argument resolved): the manifest key. */
  real: string;
  /**
   * What is opened, when it is not `real`: the path's bytes, when they are not UTF-8 (a name from elsewhere;
   * `real` is their latin1 spelling), or the private file a store's session was copied into (`real` is then
   * `<database>#<session id>`).
   */
  bytes?: Buffer;
  size: number;
  mtimeMs: number;
  /** `<dev>:<ino>`: the same file reached twice in one run is converted once. */
  id: string;
  /** Named on the command line (not found in a walk): a binary one fails rather than being skipped. */
  named?: true;
  /** A Claude Code subagent transcript (`.../subagents/agent-*.jsonl`), by its location. */
  sidecar: boolean;
  /** Named by its session id (`convert <id>`): the resume command is said once it is converted. */
  byId?: boolean;
}

/** What a walk found, in input order: a file, a session store (its sessions listed later), or a path that could not be listed. */
export type Discovered =
  | { kind: 'source'; source: Source }
  | { kind: 'store'; path: string; db: string; agent: StoreAgent; /** Only the session of this id or id prefix (`convert <id>`). */ only?: string }
  | { kind: 'error'; path: string; error: string };

/** True for Claude Code's subagent sidecar files: `<session>/subagents/agent-<id>.jsonl`. */
export function isSubagentSidecar(path: string): boolean {
  return basename(dirname(path)) === 'subagents' && /^agent-.+\.jsonl$/.test(basename(path));
}

function source(path: string, real: string, st: Stats, bytes?: Buffer): Source {
  return {
    path, real, size: st.size, mtimeMs: st.mtimeMs, id: `${st.dev}:${st.ino}`, sidecar: isSubagentSidecar(real), ...(bytes ? { bytes } : {}),
  };
}

/**
 * A directory entry's path: as text when its bytes are UTF-8, else (a name another system wrote) as bytes, with
 * a key spelled one char per byte (latin1: it maps back to the same bytes, so the manifest finds it again).
 */
function entryPath(dir: string, dirBytes: Buffer | undefined, name: Buffer): { path: string; bytes?: Buffer } {
  const text = name.toString('utf8');
  if (dirBytes === undefined && Buffer.from(text, 'utf8').equals(name)) return { path: join(dir, text) };
  const bytes = Buffer.concat([dirBytes ?? Buffer.from(dir, 'utf8'), Buffer.from(sep), name]);
  return { path: bytes.toString('latin1'), bytes };
}

/**
 * List the files behind `inputs` (paths relative to `processCwd`), in argument order. A directory is
 * walked depth first with its entries sorted by name, so the order is the same on every run.
 */
export function discoverSources(inputs: readonly string[], processCwd: string): Discovered[] {
  const out: Discovered[] = [];
  for (const input of inputs) {
    const absolute = resolve(processCwd, input);
    let st: Stats;
    let real: string;
    try {
      st = statSync(absolute);
      real = realpathSync(absolute);
    } catch (error) {
      out.push({ kind: 'error', path: input, error: cannotBeRead(error) });
      continue;
    }
    const store = locateStore(real);
    if (store !== undefined) {
      out.push({ kind: 'store', path: store.db === real ? input : join(input, basename(store.db)), db: store.db, agent: store.agent });
    } else if (st.isDirectory()) walk(input, real, out);
    else if (st.isFile()) out.push({ kind: 'source', source: { ...source(input, real, st), named: true } });
    else out.push({ kind: 'error', path: input, error: cannotBeRead(notRegularFile(st)) });
  }
  return out;
}

function walk(shown: string, real: string, out: Discovered[], realBytes?: Buffer): void {
  let entries: Buffer[];
  try {
    // As bytes: a name that is not UTF-8 is still a file to convert.
    entries = readdirSync(realBytes ?? real, { encoding: 'buffer' });
  } catch (error) {
    out.push({ kind: 'error', path: shown, error: cannotBeRead(error) });
    return;
  }
  // Plain code-unit order, not the locale's: the same tree lists the same way everywhere.
  const listed = entries.map((bytes) => ({ bytes, name: bytes.toString('utf8') }));
  listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : Buffer.compare(a.bytes, b.bytes)));
  for (const { bytes: nameBytes, name } of listed) {
    const entry = entryPath(real, realBytes, nameBytes);
    const path = entry.path;
    const shownPath = join(shown, name);
    let st: Stats;
    try {
      st = lstatSync(entry.bytes ?? path);
    } catch (error) {
      // Gone between the listing and the look: report it, the rest go on.
      out.push({ kind: 'error', path: shownPath, error: cannotBeRead(error) });
      continue;
    }
    if (st.isDirectory()) {
      const store = entry.bytes === undefined ? locateStore(path) : undefined;
      if (store !== undefined) out.push({ kind: 'store', path: join(shownPath, basename(store.db)), db: store.db, agent: store.agent });
      else if (name !== MANIFEST_DIR) walk(shownPath, path, out, entry.bytes);
    } else if (st.isFile() && LOG_EXTENSIONS.includes(extname(name).toLowerCase())) {
      // A subagent's .meta.json beside its transcript describes it; it is not a log.
      if (name.endsWith('.meta.json') && basename(real) === 'subagents') continue;
      out.push({ kind: 'source', source: source(shownPath, path, st, entry.bytes) });
    }
    // Symlinks (not followed inside a tree), sockets, fifos and other names are not inputs.
  }
}
