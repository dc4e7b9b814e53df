// The filter, as the library and the bin use it: `runFilter` and what it takes and gives. Its parts:
// run.ts (the loop), inputs.ts, lines.ts (each line, through lib/input/event-reader.ts), session.ts,
// monitors.ts, stdout.ts.
export { runFilter } from './run.js';
export type { FilterIO, FilterOptions, FilterResult } from './types.js';
