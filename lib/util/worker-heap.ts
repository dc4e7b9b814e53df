// The young generation of worker threads. The installed command runs node with `--max-semi-space-size=4`
// (bin/asyncai-log.ts), and V8 then gives every isolate, workers included, a new space of two 4 MB
// semi-spaces whatever a worker's `maxYoungGenerationSizeMb` asks (a worker asking for less or more gets the
// same). The workers' limit says the same, so a program that calls the library in a node without the flag
// gets the young generations the command was measured with. A pool that wants smaller ones sets V8's flag
// while its workers start (startWithSemiSpace).
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * The V8 flags the command sets when it starts, for the Node version running it. Node 24's V8 turned
 * `separate-gc-phases` on (Node 20's and 22's have it, off): while a full collection marks, no young
 * collection runs, and the new space grows past its two semi-spaces for as long as the marking lasts, which
 * raised the peak RSS of `read` on Node 24 (figures: docs/performance.md). Only Node 24 gets it: a V8 that no longer knows a flag prints an error for it.
 */
export function gcFlagsFor(nodeVersion: string = process.versions.node): string[] {
  return nodeVersion.split('.')[0] === '24' ? ['--no-separate-gc-phases'] : [];
}

/** Sets gcFlagsFor this process, before it allocates much: the flags hold for every isolate, workers included. */
export function setGcFlags(): void {
  for (const flag of gcFlagsFor()) v8.setFlagsFromString(flag);
}

/** Young generation of a worker, in MB: as the command's flag makes it (two semi-spaces of 4 MB). */
export const WORKER_YOUNG_MB = 8;

/** The semi-space size node was started with (`--max-semi-space-size`, on its command line or in NODE_OPTIONS), in MB; 0: V8's own. */
export function startSemiSpaceMb(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number {
  const args = [...nodeOptions.split(/\s+/).filter((arg) => arg !== ''), ...execArgv];
  let mb = 0;
  for (let i = 0; i < args.length; i += 1) {
    const match = /^--max[-_]semi[-_]space[-_]size(?:=(.*))?$/.exec(args[i]!);
    if (match === null) continue;
    const value = Number(match[1] ?? args[i + 1]);
    if (Number.isInteger(value) && value >= 0) mb = value;
  }
  return mb;
}

/** Calls of startWithSemiSpace whose workers are not all up yet. */
let starting = 0;

/**
 * Start workers (`start`) whose isolates have semi-spaces of `mb` MB (a young generation of twice that),
 * whatever the process was started with. V8 reads its flag when an isolate is made, so the flag is set for
 * the process until each worker is online (or has failed to start), then set back to what node was started
 * with. A worker another caller starts meanwhile gets the same size, so only a pool whose workers start
 * together with no others should ask; the main thread's heap was made at start and does not change. The
 * caller keeps the workers' `exit` listeners (one is this function's).
 */
export function startWithSemiSpace(mb: number, start: () => Worker[]): Worker[] {
  if (starting === 0) v8.setFlagsFromString(`--max-semi-space-size=${mb}`);
  starting += 1;
  let workers: Worker[] = [];
  let pending = 0;
  const settled = () => {
    pending -= 1;
    if (pending > 0) return;
    starting -= 1;
    if (starting === 0) v8.setFlagsFromString(`--max-semi-space-size=${startSemiSpaceMb()}`);
  };
  try {
    workers = start();
  } finally {
    // One more than the workers: the last settles here when none was started.
    pending = workers.length + 1;
    for (const worker of workers) {
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        settled();
      };
      worker.once('online', once);
      // A worker stopped or failing before it came online still exits: the caller must not remove this.
      worker.once('exit', once);
    }
    settled();
  }
  return workers;
}
