// OpenCode (1.18.33): everything this project knows about it lives in this folder. The writer
// (`--session-format opencode`, loaded through `opencode import`), the `opencode-export` and
// `opencode-run-json` (`opencode run --format json`) input formats, its database as input (store.ts), ids, project
// ids and finding the `opencode` program.
export { FORMAT, createOpencodeHarness, journalDocument, opencode } from './harness.js';
export { OpencodeMapper } from './records.js';
export { IdMinter } from './ids.js';
export { findOpencode, MISSING_OPENCODE, OPENCODE_VARIABLE } from './binary.js';
export { remoteKey, resolveProject } from './project.js';
export { INPUT_FORMAT, fromOpencodeTokens, opencodeExport } from './reader.js';
export { RUN_FORMAT, opencodeRunJson } from './run-json.js';
export { locateStore, opencodeStore, SESSION_ID, storeDatabase } from './store.js';

import type { Agent } from '../../session/types.js';
import { opencode as harness } from './harness.js';
import { opencodeExport as exported } from './reader.js';
import { opencodeRunJson as run } from './run-json.js';
import { opencodeStore as store } from './store.js';

export const opencodeAgent: Agent = { harness, inputs: [exported, run], sessionInput: exported.name, store };
