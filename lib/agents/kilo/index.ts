// Kilo (`@kilocode/cli` 7.7.7): an OpenCode fork keeping OpenCode's session layout (lib/opencode-store/) under
// its own names. This folder holds only what differs: its flavour (program, XDG folder, database, config, agent
// name), the writer (`--session-format kilo`, loaded through `kilo import`), the `kilo-export` input format (`kilo
// export` documents and the writer's journals) and its database (`kilo.db`) as input. Its `kilo run --format
// json` output is the same as OpenCode's, read by `opencode-run-json`.
import type { Agent } from '../../session/types.js';
import { exportFormat, majorVersion } from '../../opencode-store/export-reader.js';
import { layoutHarness } from '../../opencode-store/harness.js';
import { layoutStore } from '../../opencode-store/store.js';
import { KILO } from './flavour.js';

export { KILO } from './flavour.js';

/** `--session-format kilo`. */
export const kilo = layoutHarness(KILO);

/** `kilo export` documents and the writer's journals: Kilo's versions start at 7 (the OpenCode it forked was 1.x). */
export const kiloExport = exportFormat(KILO.exportInput, KILO.name, (info) => (majorVersion(info) ?? 0) >= 7);

/** Kilo's database as input: `kilo.db` (or a release channel's `kilo-<channel>.db`), or a directory holding it. */
export const kiloStore = layoutStore(KILO);

export const kiloAgent: Agent = { harness: kilo, inputs: [kiloExport], sessionInput: kiloExport.name, store: kiloStore };
