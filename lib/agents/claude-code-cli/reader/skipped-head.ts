// The few top-level fields of a record too long to read (its uuid, parentUuid, type...), taken from its bytes
// as they stream past and are dropped: the branch index keeps the skipped record's place, so the records
// before and after it stay one chain. Unlike record-head.ts (a whole line in a buffer) it is fed a chunk at a
// time and holds only the short values it keeps.
import { nodeKind } from './branch-graph.js';
import type { RecordHead } from './record-head.js';

/** The fields kept, all short: longer values (or keys) are not these fields and are not held. */
const WANTED = new Set(['type', 'subtype', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'leafUuid', 'timestamp']);
const MAX_KEPT = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Top-level fields of one JSON object fed as bytes in pieces; nested values are passed over. */
export class SkippedHead {
  private depth = 0;
  private inString = false;
  /** An odd run of backslashes ended the last piece inside a string: its next byte is escaped. */
  private escaped = false;
  /** What a string at depth 1 is: a key (after `{` or `,`) or a value (after `:`). */
  private role: 'key' | 'value' = 'key';
  /** The bytes of the depth-1 string or literal being kept; undefined when it is not kept. */
  private kept: number[] | undefined;
  private literal = false;
  private key: string | undefined;
  private broken = false;
  readonly fields: Record<string, unknown> = {};

  /** Feed `buf[start, end)`, the next bytes of the record. */
  feed(buf: Uint8Array, start: number, end: number): void {
    let i = start;
    while (i < end && !this.broken) {
      if (this.inString) {
        i = this.inStringRun(buf, i, end);
        continue;
      }
      const c = buf[i]!;
      i += 1;
      if (this.literal) {
        if (c === 0x2c || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.endLiteral();
        else {
          this.keep(c);
          continue;
        }
      }
      if (c === QUOTE) {
        this.inString = true;
        this.kept = this.depth === 1 && (this.role === 'key' || (this.key !== undefined && WANTED.has(this.key))) ? [] : undefined;
      } else if (c === 0x7b || c === 0x5b) {
        this.depth += 1;
        if (this.depth === 1) this.role = 'key';
      } else if (c === 0x7d || c === 0x5d) {
        this.depth -= 1;
        if (this.depth < 0) this.broken = true;
      } else if (this.depth === 1 && c === 0x3a) {
        this.role = 'value';
      } else if (this.depth === 1 && c === 0x2c) {
        this.role = 'key';
        this.key = undefined;
      } else if (this.depth === 1 && this.role === 'value' && c > 0x20 && this.key !== undefined && WANTED.has(this.key)) {
        this.literal = true;
        this.kept = [c];
      }
    }
  }

  /** The record's head for the branch index, when it named a uuid. */
  head(): RecordHead | undefined {
    const f = this.fields;
    if (typeof f.uuid !== 'string' || f.uuid === '') return undefined;
    return {
      type: f.type, uuid: f.uuid, parentUuid: f.parentUuid, logicalParentUuid: f.logicalParentUuid,
      isSidechain: f.isSidechain, leafUuid: f.leafUuid, timestamp: f.timestamp, kind: nodeKind(f),
    };
  }

  /** Inside a string from `i`: up to its closing quote (the string done) or the piece's end. */
  private inStringRun(buf: Uint8Array, i: number, end: number): number {
    while (i < end) {
      const c = buf[i]!;
      i += 1;
      if (this.escaped) {
        this.escaped = false;
        // An escaped character in a kept value: not a plain uuid, type or time; dropped.
        this.kept = undefined;
        continue;
      }
      if (c === BACKSLASH) {
        this.escaped = true;
        continue;
      }
      if (c === QUOTE) {
        this.inString = false;
        this.endString();
        return i;
      }
      if (this.kept !== undefined) this.keep(c);
    }
    return i;
  }

  private keep(c: number): void {
    if (this.kept === undefined) return;
    if (this.kept.length >= MAX_KEPT) this.kept = undefined;
    else this.kept.push(c);
  }

  private endString(): void {
    if (this.depth !== 1) return;
    const text = this.kept !== undefined ? Buffer.from(this.kept).toString('utf8') : undefined;
    this.kept = undefined;
    if (this.role === 'key') this.key = text;
    else if (this.key !== undefined && text !== undefined && WANTED.has(this.key) && !(this.key in this.fields)) this.fields[this.key] = text;
  }

  private endLiteral(): void {
    this.literal = false;
    const text = this.kept !== undefined ? Buffer.from(this.kept).toString('latin1') : undefined;
    this.kept = undefined;
    if (this.key === undefined || text === undefined || this.key in this.fields) return;
    if (text === 'true' || text === 'false') this.fields[this.key] = text === 'true';
    else if (text === 'null') this.fields[this.key] = null;
  }
}
