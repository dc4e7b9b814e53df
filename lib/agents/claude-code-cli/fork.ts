// A concurrent `claude --resume` continues the session from the leaf it loaded when it started: records this
// harness wrote while it ran are then off the branch the next resume follows (Claude Code's own records
// skip them). The harness remembers the uuids of its last chain records (bounded; the records themselves
// stay on disk) and, when another writer's records fork from before them, reads the skipped ones back and
// appends copies after that writer's last record, so the next resume sees both.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { ClaudeRecord } from './records.js';

/** How many of our last chain records are remembered for a fork repair (and read back for one, at most). */
const RECENT_RECORDS = 2000;
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** The chain records (uuid and parent) in complete JSONL `text`, in file order. */
function chainRecords(text: string): { uuid: string; parent: string | null; record: Record<string, unknown> }[] {
  const out: { uuid: string; parent: string | null; record: Record<string, unknown> }[] = [];
  for (const line of text.split('\n')) {
    // Cheap filter first: foreign appends hold large non-chain records (API request blobs).
    if (!line.includes('"parentUuid"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
    const { uuid, parentUuid } = record as Record<string, unknown>;
    if (typeof uuid === 'string' && (typeof parentUuid === 'string' || parentUuid === null)) {
      out.push({ uuid, parent: parentUuid, record: record as Record<string, unknown> });
    }
  }
  return out;
}

/**
 * The uuids of our recent chain records and of the foreign records we chained onto, in write order. Only
 * strings are kept (in flat arrays): holding the records would cost the writer a fifth of its time in GC.
 */
export class RecentChain {
  /** Live entries are `uuids[head...]`; the dead prefix is dropped now and then (amortised O(1)). */
  private uuids: string[] = [];
  private head = 0;
  /** The foreign records we chained onto (the other entries are ours). */
  private readonly anchors = new Set<string>();

  /** We chained onto the foreign record `uuid`. */
  anchor(uuid: string): void {
    this.anchors.add(uuid);
    this.push(uuid);
  }

  /** We wrote the chain record `uuid`. */
  own(uuid: string): void {
    this.push(uuid);
  }

  /**
   * Our records that the chain records in `text` (complete lines another process appended) went around:
   * the uuids of ours after the point the other writer continued from, oldest first. `undefined` when it
   * continued from a point no longer remembered: what we wrote since may be off the next resume's branch.
   */
  skippedBy(text: string): string[] | undefined {
    const seen = new Set<string>();
    for (const { uuid, parent } of chainRecords(text)) {
      seen.add(uuid);
      // The first record that continues from outside this append: where the other writer forked.
      if (parent === null || seen.has(parent)) continue;
      let at = this.uuids.length - 1;
      while (at >= this.head && this.uuids[at] !== parent) at -= 1;
      if (at < this.head) return this.uuids.length > this.head ? undefined : [];
      return this.uuids.slice(at + 1).filter((u) => !this.anchors.has(u));
    }
    return [];
  }

  private push(uuid: string): void {
    this.uuids.push(uuid);
    if (this.uuids.length - this.head > RECENT_RECORDS) {
      // Usually there is no anchor at all: no lookup (hashing a uuid) per record then.
      if (this.anchors.size > 0) this.anchors.delete(this.uuids[this.head]!);
      this.head += 1;
      if (this.head >= RECENT_RECORDS) {
        this.uuids = this.uuids.slice(this.head);
        this.head = 0;
      }
    }
  }
}

/**
 * Read our records `uuids` back from the transcript at `path` (they are among its last MAX_READ_BYTES),
 * in file order. `undefined` when one of them is not found there (or the file cannot be read). Never throws.
 */
export function readRecords(path: string, uuids: readonly string[]): ClaudeRecord[] | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  let text: string;
  let fromStart: boolean;
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, MAX_READ_BYTES);
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, size - length + got);
      if (n === 0) break;
      got += n;
    }
    text = buf.toString('utf8', 0, got);
    fromStart = length === size;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  // A read that starts mid-file starts mid-line: that first piece is not a record.
  if (!fromStart) text = text.slice(text.indexOf('\n') + 1);
  const wanted = new Set(uuids);
  const found = new Map<string, ClaudeRecord>();
  for (const { uuid, record } of chainRecords(text)) if (wanted.has(uuid)) found.set(uuid, record);
  if (found.size !== wanted.size) return undefined;
  return uuids.map((uuid) => found.get(uuid)!);
}

/**
 * Copies of `records` chained one after the other from `parent`, each with a fresh uuid. A compaction
 * boundary stays a new root (parentUuid null) and names its logical parent, as the original did. Assistant
 * records get fresh message ids (one per original id): Claude Code merges every record of one message id,
 * so a copy sharing its original's would bring the original's blocks back in. `messageIds` maps old to new.
 */
export function copyChain(
  records: readonly ClaudeRecord[], parent: string, newUuid: () => string,
): { copies: ClaudeRecord[]; messageIds: Map<string, string> } {
  const messageIds = new Map<string, string>();
  let previous = parent;
  const copies = records.map((record) => {
    const uuid = newUuid();
    const copy: ClaudeRecord = record.parentUuid === null
      ? { ...record, logicalParentUuid: previous, uuid }
      : { ...record, parentUuid: previous, uuid };
    const message = record.message as Record<string, unknown> | undefined;
    if (record.type === 'assistant' && typeof message === 'object' && message !== null && typeof message.id === 'string') {
      let id = messageIds.get(message.id);
      if (id === undefined) {
        id = `msg_${newUuid().replace(/-/g, '').slice(0, 24)}`;
        messageIds.set(message.id, id);
      }
      copy.message = { ...message, id };
    }
    previous = uuid;
    return copy;
  });
  return { copies, messageIds };
}
