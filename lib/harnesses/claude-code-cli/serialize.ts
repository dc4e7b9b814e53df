// One Claude Code record as a JSON line, appended to a list of pieces: text, and raw bytes spliced from the
// input line for long strings (the same JSON value, without serialising them again).
import type { JsonSource } from '../../input/raw-json.js';
import { stringifySpliced, type JsonPieces } from '../../session/spliced-json.js';
import { EventRejected } from '../types.js';
import type { ClaudeRecord } from './records.js';

/**
 * Append one record's JSON line to `out`. Records of long input lines splice the line's long strings in as
 * raw bytes (the same JSON value, without serialising them again).
 */
export function serializeRecord(record: ClaudeRecord, out: JsonPieces, source?: JsonSource): void {
  try {
    const json = source ? stringifySpliced(record, source) : JSON.stringify(record);
    if (typeof json === 'string') {
      out.push(`${json}\n`);
    } else {
      for (let i = 0; i < json.length - 1; i += 1) out.push(json[i]!);
      out.push(`${json[json.length - 1] as string}\n`);
    }
  } catch (error) {
    // Too deeply nested for JSON.stringify, or similar: the event is rejected, the harness goes on.
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}
