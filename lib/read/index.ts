// `asyncai-log read`, as the bin uses it: `runRead` (run-read.ts) and what the read command needs besides (lib/
// is reached from bin/ through the entry modules only): the formats --session-dir takes, its checks, the
// temporary copies to remove on a signal, and the V8 flags its memory figures depend on.
export { runRead } from './run-read.js';
export type { ReadCommandOptions, ReadIO } from './run-read.js';
export { USAGE_GROUPS, type UsageGroup } from './usage-by.js';
export { readableFormats } from '../agents/index.js';
export { parseSessionDirs, UsageError } from '../session/options.js';
export { removeTempDirs } from '../util/temp-dirs.js';
