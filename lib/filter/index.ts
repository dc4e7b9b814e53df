// The filter, as the library and the bin use it: `runFilter` and what it takes and gives. Its parts:
// run.ts (the loop), inputs.ts, lines.ts (each line, through lib/input/event-reader.ts), session.ts,
// monitors.ts, stdout.ts.
export { runFilter } from './run.js';
export type { FilterIO, FilterOptions, FilterResult } from './types.js';
// What the bin's filter command needs besides (lib/ is reached from bin/ through the entry modules only): its
// flags' checks and defaults, the stdin file, the format names and the writers' roots for the help, the
// diagnostic line, and the heap flags the bin sets first. The bin's start-up loads no more of lib/ than this.
export { parseSessionDirs, UsageError } from '../session/options.js';
export { fileInput } from '../input/file-input.js';
export { DEFAULT_MAX_LINE_BYTES } from '../lines/lines.js';
export { monitorSpecs } from '../monitor/index.js';
export { HARNESSES, knownFormats } from '../agents/index.js';
export { inputFormatNames } from '../agents/input-formats.js';
export { setGcFlags } from '../util/worker-heap.js';
export { diagnosticLine } from '../util/shown-text.js';
