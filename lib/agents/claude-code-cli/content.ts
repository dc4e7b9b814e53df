// The pieces of Claude Code message content the record mapper (records.ts) builds: message ids in the API's
// shape; image blocks and tool result content are the Anthropic blocks shared with Droid (lib/anthropic-content/).
import { randomAlnum } from '../../util/random-id.js';

export { imageBlock, resultContent, textOf } from '../../anthropic-content/blocks.js';

/** A new message id in the shape the API gives them. */
export function newMessageId(): string {
  return randomAlnum('msg_', 24);
}

/** A new API request id in the shape Claude Code records them (`requestId` beside an assistant message). */
export function newRequestId(): string {
  return randomAlnum('req_', 24);
}
