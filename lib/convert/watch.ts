// `convert --watch`: after the first pass, convert what is new or grew as it happens. File system events
// (fs.watch, recursive for a directory) name the files that moved; only those are looked at again, through
// the same planner (an unchanged size and mtime reads nothing). Where events are not to be had, the inputs
// are listed again every few seconds (stat only). Ends when the signal aborts, after the file in progress.
// Each pass writes a manifest run file; past a few, the ones this watch wrote are folded into one.
import { type FSWatcher, lstatSync, statSync, watch } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { runConvert, type ConvertIO, type ConvertOptions, type ConvertSummary } from './run.js';
import { LOG_EXTENSIONS } from './discover.js';
import { compactRunFiles, MANIFEST_DIR } from './manifest.js';
import { diagnosticLine } from '../util/shown-text.js';
import { describeError } from '../util/fs-errors.js';

export interface WatchSettings {
  /** List every input again this often instead of waiting for events (ms); also the fallback's period. */
  pollMs?: number;
  /** Poll even where events are available. */
  forcePoll?: boolean;
}

/** How long a burst of events is gathered before a pass (a writer appends in several writes). */
const GATHER_MS = 100;
const DEFAULT_POLL_MS = 2000;
/** Run files of its own a watch keeps per manifest directory before folding them into one. */
export const COMPACT_AFTER = 8;

/**
 * Would a directory walk take `path` (found under a watched directory)? A log file, or a directory: one that
 * appeared may hold files written before its own events were watched, so it is walked (what is known reads nothing).
 */
function walkTakes(path: string): boolean {
  if (path.split(sep).includes(MANIFEST_DIR)) return false;
  let st;
  try {
    st = lstatSync(path); // symlinks inside a tree are not followed
  } catch {
    return false; // gone again
  }
  if (st.isDirectory()) return true;
  if (!st.isFile() || !LOG_EXTENSIONS.includes(extname(path).toLowerCase())) return false;
  return !(path.endsWith('.meta.json') && basename(dirname(path)) === 'subagents');
}

/**
 * The run files this watch wrote (all closed), with those of a manifest directory that holds more than
 * COMPACT_AFTER of them folded into one. A failure to fold is reported and leaves the files as they are.
 */
async function compactOwn(files: string[], io: ConvertIO): Promise<string[]> {
  const byDir = new Map<string, string[]>();
  for (const file of files) byDir.set(dirname(file), [...(byDir.get(dirname(file)) ?? []), file]);
  const kept: string[] = [];
  for (const [dir, own] of byDir) {
    if (own.length <= COMPACT_AFTER) {
      kept.push(...own);
      continue;
    }
    try {
      const folded = await compactRunFiles(own, (message) => io.stderr.write(diagnosticLine(message)));
      if (folded !== undefined) kept.push(folded);
    } catch (error) {
      io.stderr.write(diagnosticLine(`${dir}: cannot compact the manifest: ${describeError(error)}`));
      kept.push(...own);
    }
  }
  return kept;
}

/** Runs the first pass, then watches until `io.signal` aborts. The summary counts every pass. */
export async function watchConvert(options: ConvertOptions, io: ConvertIO & { signal: AbortSignal }, settings: WatchSettings = {}): Promise<ConvertSummary> {
  const total = await runConvert(options, io);
  const signal = io.signal;
  const pending = new Set<string>();
  let wake: (() => void) | undefined;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  signal.addEventListener('abort', nudge, { once: true });

  const watchers: FSWatcher[] = [];
  let polling = settings.forcePoll ?? false;
  const startPolling = () => {
    polling = true;
    for (const w of watchers.splice(0)) w.close();
    nudge();
  };
  if (!polling) {
    try {
      for (const input of options.inputs) {
        const absolute = resolve(options.processCwd, input);
        const onError = () => startPolling();
        if (statSync(absolute).isDirectory()) {
          const w = watch(absolute, { recursive: true, encoding: 'buffer' }, (_event, name) => {
            if (name === null) return startPolling(); // the platform did not say which: look at all
            // Node 20's recursive watch on Linux gives text whatever the encoding asked: undecodable bytes are U+FFFD.
            const text = typeof name === 'string' ? name : name.toString('utf8');
            if (typeof name === 'string' ? text.includes('\uFFFD') : !Buffer.from(text, 'utf8').equals(name)) {
              // A name that is not UTF-8 has no text path: the walk of the whole input finds it by its bytes.
              pending.add(input);
              nudge();
              return;
            }
            const found = join(input, text);
            if (walkTakes(resolve(options.processCwd, found))) {
              pending.add(found);
              nudge();
            }
          });
          w.on('error', onError);
          watchers.push(w);
        } else {
          // A named file: its directory is watched, so a file replaced by a rename is seen too.
          const w = watch(dirname(absolute), (_event, name) => {
            if (name === null || name.toString() === basename(absolute)) {
              pending.add(input);
              nudge();
            }
          });
          w.on('error', onError);
          watchers.push(w);
        }
      }
    } catch {
      // No (recursive) file system events here, or an input is gone: list the inputs every few seconds.
      startPolling();
    }
  }

  const pollMs = settings.pollMs ?? DEFAULT_POLL_MS;
  if (!signal.aborted) {
    io.stderr.write(diagnosticLine(`convert: watching ${options.inputs.length === 1 ? options.inputs[0] : `${options.inputs.length} inputs`} `
      + `(${polling ? `listing again every ${pollMs / 1000} s` : 'file system events'}; SIGINT or SIGTERM ends)`));
  }
  const sleep = (ms: number) => new Promise<void>((done) => {
    const timer = setTimeout(() => {
      wake = undefined;
      done();
    }, ms);
    wake = () => {
      clearTimeout(timer);
      done();
    };
  });
  try {
    while (!signal.aborted) {
      if (polling) {
        await sleep(pollMs);
        if (signal.aborted) break;
        for (const input of options.inputs) pending.add(input);
      } else if (pending.size === 0) {
        await new Promise<void>((done) => {
          wake = done;
        });
        if (signal.aborted || pending.size === 0) continue;
        await sleep(GATHER_MS); // a later event of the burst ends the wait early; the rest come next pass
      }
      if (signal.aborted || pending.size === 0) continue;
      // A file found by an event that is gone again is not reported; a named input is, as in the first pass.
      const inputs = [...pending].sort().filter((p) => options.inputs.includes(p) || walkTakes(resolve(options.processCwd, p)));
      pending.clear();
      if (inputs.length === 0) continue;
      const pass = await runConvert({ ...options, inputs, progress: false, changesOnly: true }, io);
      total.converted += pass.converted;
      total.failed += pass.failed;
      total.skipped += pass.skipped;
      for (const [reason, n] of Object.entries(pass.skippedBy)) total.skippedBy[reason] = (total.skippedBy[reason] ?? 0) + n;
      total.manifestFiles = await compactOwn([...total.manifestFiles, ...pass.manifestFiles], io);
      total.aborted ||= pass.aborted;
    }
  } finally {
    for (const w of watchers) w.close();
    signal.removeEventListener('abort', nudge);
  }
  total.code = total.failed > 0 ? 1 : 0;
  return total;
}
