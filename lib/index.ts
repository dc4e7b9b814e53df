// The public API: what a program embedding asyncai-log imports. The CLI is a thin layer over these.
export * from './events.js';
export { runFilter, openSessions, parseSessionDirs, checkSessionOptions, UsageError } from './filter.js';
export type { FilterOptions, FilterIO, FilterResult, SessionOptions } from './filter.js';
export { SessionLogger, sessionLine } from './session/logger.js';
export { AppendFile } from './session/append-file.js';
export { HARNESSES, findHarness, knownFormats } from './harnesses/index.js';
export type { HarnessFactory, HarnessOptions, SessionHarness } from './harnesses/types.js';
export { EventRejected } from './harnesses/types.js';
export { encodeProjectDir } from './harnesses/claude-code-cli/project-dir.js';
export { ClaudeRecordMapper } from './harnesses/claude-code-cli/records.js';
export { LineSplitter, createLineStream, DEFAULT_MAX_LINE_BYTES } from './input/lines.js';
export type { Line, LineBatch } from './input/lines.js';
export { INPUT_FORMATS, detectInputFormat, findInputFormat, inputFormatNames } from './input/index.js';
export type { InputAdapter, InputFormat, SessionFacts } from './input/types.js';
export { InputError } from './input/types.js';
export { createAdapterStream } from './input/adapter-stream.js';
export type { AdapterStream, AdapterStreamOptions } from './input/adapter-stream.js';
export * from './readers/claude-code-cli/index.js';
