// OpenCode (1.18.33): what this project knows about it beyond the layout it shares with its forks
// (lib/opencode-store/): its flavour (program, directories, database, config), the writer
// (`--session-format opencode`, loaded through `opencode import`), the `opencode-export` and `opencode-run-json`
// (`opencode run --format json`) input formats, and its database as input.
import type { Agent, SessionHarness } from '../../session/types.js';
import { majorVersion, exportFormat } from '../../opencode-store/export-reader.js';
import { createLayoutHarness, layoutHarness, storeEnv, type OpencodeHarnessOptions } from '../../opencode-store/harness.js';
import { layoutStore } from '../../opencode-store/store.js';
import { OPENCODE } from './flavour.js';
import { opencodeRunJson } from './run-json.js';

export { OPENCODE } from './flavour.js';
export { RUN_FORMAT, opencodeRunJson } from './run-json.js';

export const FORMAT = OPENCODE.format;
export const INPUT_FORMAT = OPENCODE.exportInput;

/** `--session-format opencode`. */
export const opencode = layoutHarness(OPENCODE);

/** Open an OpenCode session (tests). */
export function createOpencodeHarness(options: OpencodeHarnessOptions): SessionHarness {
  return createLayoutHarness(OPENCODE, options);
}

/** The environment `opencode import` runs in to write under `root` (lib/opencode-store/harness.ts, storeEnv). */
export function opencodeEnv(env: Record<string, string | undefined>, root: string, defaultRoot: string): Record<string, string> {
  return storeEnv(OPENCODE, env, root, defaultRoot);
}

/**
 * `opencode export` documents and the writer's journals: any document not of a Kilo version (Kilo, an OpenCode
 * fork, numbers its versions from 7; OpenCode's are 0.x and 1.x), and one that names no version.
 */
export const opencodeExport = exportFormat(INPUT_FORMAT, OPENCODE.name, (info) => (majorVersion(info) ?? 0) < 7);

/** OpenCode's database as input: `opencode.db`, or a SQLite file of any other name no other CLI's database has. */
export const opencodeStore = layoutStore(OPENCODE);

export const opencodeAgent: Agent = { harness: opencode, inputs: [opencodeExport, opencodeRunJson], sessionInput: opencodeExport.name, store: opencodeStore };
