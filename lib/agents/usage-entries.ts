// The agents that count their own usage entries (`Agent.usage.entries`), each counting module loadable alone: a
// `read --usage --by` worker thread (lib/read/usage-entries-worker.ts) loads only the module of the agent whose
// files it is given, not every agent (the registry's modules are most of a worker's start). The registry gives
// the same objects (test/read/usage-entries.unit.test.ts).
import type { SessionUsage } from '../session/types.js';

const LOADERS: Readonly<Record<string, () => Promise<SessionUsage>>> = {
  'claude-code-cli': async () => (await import('./claude-code-cli/reader/usage-entries.js')).claudeUsage,
  'codex-cli': async () => (await import('./codex-cli/usage.js')).codexUsage,
  droid: async () => (await import('./droid/usage.js')).droidUsage,
};

/** The writer formats of the agents that count their own usage entries. */
export const USAGE_ENTRIES_FORMATS: readonly string[] = Object.keys(LOADERS);

/** The usage of the agent of writer format `format`, loaded alone, when it counts its own entries; else undefined. */
export async function loadUsageEntries(format: string): Promise<SessionUsage['entries']> {
  return Object.hasOwn(LOADERS, format) ? (await LOADERS[format]!()).entries : undefined;
}
