// The young generation of every isolate, worker threads included. The installed command runs node with
// `--max-semi-space-size=4` (bin/asyncai-log.ts), and V8 then gives every isolate a new space of two 4 MB
// semi-spaces whatever a worker's `maxYoungGenerationSizeMb` asks. The workers' limit says the same, so a
// program that calls the library in a node without the flag gets the young generations the command was
// measured with.

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
  for (const flag of gcFlagsFor()) process.getBuiltinModule('node:v8').setFlagsFromString(flag);
}

/** Young generation of a worker, in MB: as the command's flag makes it (two semi-spaces of 4 MB). */
export const WORKER_YOUNG_MB = 8;
