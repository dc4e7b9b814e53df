// GitHub Copilot CLI (`@github/copilot` 1.0.102, `copilot`): everything this project knows about it lives in this
// folder. The writer (`--session-format copilot-cli`), the `copilot-events` input format (its session files and
// its `--output-format json` stream), paths and the resume command.
import type { Agent } from '../../session/types.js';
import { copilotCli as harness } from './harness.js';
import { copilotEvents } from './reader.js';
import { copilotSessions } from './sessions.js';

export { FORMAT, copilotCli, createCopilotHarness, lastEventId } from './harness.js';
export { CopilotEventMapper } from './records.js';
export { copilotRoot, sessionStateDir } from './paths.js';
export { INPUT_FORMAT, copilotEvents } from './reader.js';

export const copilotAgent: Agent = { harness, inputs: [copilotEvents], sessionInput: copilotEvents.name, sessions: copilotSessions };
