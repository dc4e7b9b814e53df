// Which files a batch conversion reads: named files as they are (symlinks followed), directories walked
// recursively in name order (regular `.jsonl`/`.ndjson`/`.json` files only, symlinks inside not followed,
// the convert manifest directory left out). Pure listing: nothing is opened for reading here.
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { MANIFEST_DIR } from './manifest.js';
import { cannotBeRead, notRegularFile } from '../util/fs-errors.js';

/** File name endings a directory walk takes; a file named on the command line is read whatever its name. */
export const LOG_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson', '.json'];

/** One file to convert. */
export interface Source {
  /** The path as the user spelled it: the argument, joined with the path found under it. */
  path: string;
  /** Canonical absolute path (symlinks of the argument resolved): the manifest key. */
  real: string;
  size: number;
  mtimeMs: number;
  /** `<dev>:<ino>`: the same file reached twice in one run is converted once. */
  id: string;
  /** A Claude Code subagent transcript (`.../subagents/agent-*.jsonl`), by its location. */
  sidecar: boolean;
}

/** What a walk found, in input order: a file, or a path that could not be listed. */
export type Discovered =
  | { kind: 'source'; source: Source }
  | { kind: 'error'; path: string; error: string };

/** True for Claude Code's subagent sidecar files: `<session>/subagents/agent-<id>.jsonl`. */
export function isSubagentSidecar(path: string): boolean {
  return basename(dirname(path)) === 'subagents' && /^agent-.+\.jsonl$/.test(basename(path));
}

function source(path: string, real: string, st: Stats): Source {
  return { path, real, size: st.size, mtimeMs: st.mtimeMs, id: `${st.dev}:${st.ino}`, sidecar: isSubagentSidecar(real) };
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
    if (st.isDirectory()) walk(input, real, out);
    else if (st.isFile()) out.push({ kind: 'source', source: source(input, real, st) });
    else out.push({ kind: 'error', path: input, error: cannotBeRead(notRegularFile(st)) });
  }
  return out;
}

function walk(shown: string, real: string, out: Discovered[]): void {
  let names: string[];
  try {
    names = readdirSync(real);
  } catch (error) {
    out.push({ kind: 'error', path: shown, error: cannotBeRead(error) });
    return;
  }
  // Plain code-unit order, not the locale's: the same tree lists the same way everywhere.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const path = join(real, name);
    const shownPath = join(shown, name);
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch (error) {
      // Gone between the listing and the look: report it, the rest go on.
      out.push({ kind: 'error', path: shownPath, error: cannotBeRead(error) });
      continue;
    }
    if (st.isDirectory()) {
      if (name !== MANIFEST_DIR) walk(shownPath, path, out);
    } else if (st.isFile() && LOG_EXTENSIONS.includes(extname(name).toLowerCase())) {
      // A subagent's .meta.json beside its transcript describes it; it is not a log.
      if (name.endsWith('.meta.json') && basename(real) === 'subagents') continue;
      out.push({ kind: 'source', source: source(shownPath, path, st) });
    }
    // Symlinks (not followed inside a tree), sockets, fifos and other names are not inputs.
  }
}
