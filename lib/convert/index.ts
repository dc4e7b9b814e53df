// Batch conversion, as the library and the bin use it: `runConvert` (run.ts: list the input files, decide from
// the manifest which are new or changed, convert those inline or in worker threads, record each finished
// source in this run's manifest file, report one NDJSON line per input), `watchConvert` (watch.ts) and their parts.
export { runConvert } from './run.js';
export { outcomeLine } from './output.js';
export type { ConvertIO, ConvertOptions, ConvertSummary } from './run.js';
export { discoverSources, isSubagentSidecar, LOG_EXTENSIONS } from './discover.js';
export type { Discovered, Source } from './discover.js';
export { Manifest, ManifestWriter, MANIFEST_DIR } from './manifest.js';
export type { ManifestEntry } from './manifest.js';
export { convertSource, isCodexSubagent, isConvertedRecord, provenanceFor, PROVENANCE_FIELD } from './convert-file.js';
export { createInlineRunner, createWorkerRunner } from './pool.js';
export { watchConvert, type WatchSettings } from './watch.js';
export type { ConvertRunner } from './pool.js';
export type * from './types.js';
// What the bin's convert command needs besides (lib/ is reached from bin/ through the entry modules only).
export { parseSessionDirs } from '../session/options.js';
