// The young generation of every worker thread. The installed command runs node with `--max-semi-space-size=4`
// (bin/asyncai-log.ts), and V8 then gives every isolate, workers included, a new space of two 4 MB
// semi-spaces whatever a worker's `maxYoungGenerationSizeMb` asks: measured, a worker asking for 2 or 32 MB
// gets 8. The workers' limit says the same, so a program that calls the library in a node without the flag
// gets the young generations the command was measured with.

/** Young generation of a worker, in MB: as the command's flag makes it (two semi-spaces of 4 MB). */
export const WORKER_YOUNG_MB = 8;
