// `asyncai-log sessions`, as the bin uses it: `runSessions` (run.ts), its option checks, and the ids the sessions
// index holds for shell completion.
export { runSessions, parseSince, listedFormats } from './run.js';
export type { SessionsOptions, SessionsIO } from './run.js';
export { cacheDir, cachedIds } from './cache.js';
export { parseSessionDirs, UsageError } from '../session/options.js';
