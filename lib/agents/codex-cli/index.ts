// Codex (0.171.0): everything this project knows about it lives in this folder. The writer
// (`--session-format codex-cli`), the `codex-rollout` and `codex-exec-json` input formats and rollout paths.
import { codexUsage } from './usage.js';
import type { Agent } from '../../session/types.js';
import { codexCli } from './harness.js';
import { codexExecJson } from './exec-json.js';
import { codexRollout } from './rollout-input.js';
import { codexSessions } from './sessions.js';

export { FORMAT, codexCli } from './harness.js';
export { codexExecJson } from './exec-json.js';
export { codexRollout } from './rollout-input.js';

export const codex: Agent = {
  harness: codexCli, inputs: [codexRollout, codexExecJson], sessionInput: codexRollout.name, sessions: codexSessions, usage: codexUsage,
};
