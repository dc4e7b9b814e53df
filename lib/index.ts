// The public API: what a program embedding asyncai-log imports, each name a semver promise. It is a deliberate
// short list (docs/library.md describes each; test/api.unit.test.ts holds it to that page). Anything else under
// lib/ is internal and may change in any release.

// The generic events.
export { EVENT_TYPES, normalizeEvent } from './events.js';
export type {
  AssistantEvent, CompactionEvent, ContentPart, ContextEvent, EventType, GenericEvent, ImageInput, MonitorEndEvent,
  MonitorEvent, NativeCall, Normalized, ThinkingEvent, ToolCallEvent, ToolResultEvent, Usage, UserEvent,
} from './events.js';

// The filter, and writing sessions from events a program makes itself.
export { runFilter } from './filter/index.js';
export type { FilterIO, FilterOptions, FilterResult } from './filter/index.js';
export { UsageError } from './session/options.js';
export type { SessionOptions } from './session/options.js';
export { openSessions } from './agents/open-sessions.js';
export { SessionLogger } from './session/logger.js';

// The agents: their writers, and the input formats they are read in.
export { AGENTS, findHarness, knownFormats } from './agents/index.js';
export type { Agent, HarnessFactory, HarnessOptions, SessionHarness } from './session/types.js';
export { EventRejected } from './session/types.js';
export { detectInputFormat, findInputFormat, inputFormatNames } from './agents/input-formats.js';
export type { InputAdapter, InputFormat, SessionFacts } from './input/types.js';
export { InputError } from './input/types.js';
export { createAdapterStream } from './agents/adapter-stream.js';
export type { AdapterStream, AdapterStreamOptions } from './agents/adapter-stream.js';

// Reading transcripts back.
export { readClaudeTranscript, ReaderError } from './agents/claude-code-cli/reader/index.js';
export type { ClaudeTranscriptReader, ReaderOptions, ReaderWarning, SubagentMeta } from './agents/claude-code-cli/reader/index.js';
export { findSessionTranscripts } from './agents/claude-code-cli/reader/index.js';
export { runRead } from './read/run-read.js';
export type { ReadCommandOptions } from './read/run-read.js';

// Batch conversion.
export { runConvert, watchConvert, discoverSources, Manifest, ManifestWriter, MANIFEST_DIR } from './convert/index.js';
export type { ConvertIO, ConvertOptions, ConvertSummary, ManifestEntry, WatchSettings } from './convert/index.js';
