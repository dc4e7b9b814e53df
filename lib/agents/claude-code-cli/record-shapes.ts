// The shapes of the records the writer makes (records.ts), which serialize.ts writes by template: a class per
// mapper for its turn records (their fields always in the same order), and the prototype that marks a
// notification's queue operations.
import type { ClaudeRecord } from './mapper-types.js';

export type TurnClass = new (parentUuid: string | null, type: string, message: ClaudeRecord, uuid: string, timestamp: string, requestId?: string) => object;

/** The class of a mapper's turn records: their fields in `chain`'s order, the common ones last, `prototype` theirs. */
export function turnClass(prototype: object, common: ClaudeRecord): TurnClass {
  // The fields every session has are stored directly (Object.assign per record costs more than the record);
  // a session with more (a git branch, provenance) assigns them all again, in place, as before.
  const { userType, entrypoint, cwd, sessionId, version } = common;
  const more = Object.keys(common).join() === 'userType,entrypoint,cwd,sessionId,version' ? undefined : common;
  function Turn(this: ClaudeRecord, parentUuid: string | null, type: string, message: ClaudeRecord, uuid: string, timestamp: string, requestId?: string): void {
    this.parentUuid = parentUuid;
    this.isSidechain = false;
    this.type = type;
    this.message = message;
    // An assistant record's API request, as Claude Code writes it: usage tools count a response once by
    // message id and request id, and count every record of one without a request id.
    if (requestId !== undefined) this.requestId = requestId;
    this.uuid = uuid;
    this.timestamp = timestamp;
    this.userType = userType;
    this.entrypoint = entrypoint;
    this.cwd = cwd;
    this.sessionId = sessionId;
    this.version = version;
    if (more !== undefined) Object.assign(this, more);
  }
  Turn.prototype = prototype;
  return Turn as unknown as TurnClass;
}

/** The prototype of a notification's queue operations, which marks them for serialisation by template. */
export const QUEUE_OPERATION = Object.create(Object.prototype, { queueOperation: { value: true, enumerable: false } }) as object;
