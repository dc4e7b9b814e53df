// The first pass over a transcript: the branch index (a few fields per record), and what the second pass
// needs to know of the file. Without previews a record's few fields are read from its bytes (scanRecordHead,
// on the pool's threads when there is a pool); a line that scan is not sure of is parsed. Lines are settled
// in file order whoever scanned them.
import { resolveTimestamp } from '../../../events.js';
import { BranchIndex } from './branch.js';
import { decodeRecordHead, HEAD_INTS, readRecordHead, type RecordHead } from './record-head.js';
import type { TranscriptLine } from './scan.js';
import type { TranscriptFile } from './transcript-file.js';
import { passChunks, type HeadsResult, type WorkerPool } from './worker-pool.js';
import { forEachTaskLine } from '../../../session/chunk-pool.js';

/** What the first pass learnt. */
export interface FirstPass {
  index: BranchIndex;
  /** Bytes it read (the second pass reads exactly these). */
  bytes: number;
  /** The first record's time. */
  first: string | undefined;
  /** Every line held one record and nothing was wrong with any (the second pass may go by line numbers). */
  regular: boolean;
  /** The last line's number. */
  lines: number;
  /** Bytes of the longest line (of an over-long one: what it had when it was dropped). */
  longest: number;
}

/** Index the file's records; `previews` keeps a preview of each (for the tree), which needs every record parsed. */
export async function firstPass(file: TranscriptFile, previews: boolean, pool?: WorkerPool): Promise<FirstPass> {
  const index = new BranchIndex({ previews });
  let first: string | undefined;
  let regular = true;
  let lines = 0;
  let longest = 0;
  const scan = file.open();
  /** Over-long lines' heads, by line number, while their chunk is with the pool (its line table has no room). */
  const skippedHeads = new Map<number, RecordHead>();
  const onHead = (head: RecordHead, no: number) => {
    if (!file.accept(head, no)) return;
    index.addHead(head, no, file.warn);
    if (first === undefined && typeof head.timestamp === 'string') first = validTimestamp(head.timestamp);
  };
  /** Whether the line was one record, without a warning. */
  const onParsed = (line: TranscriptLine): boolean => {
    const warnings = scan.warnings;
    const records = scan.records(line);
    const clean = records.length === 1 && scan.warnings === warnings;
    if (!clean) regular = false;
    // A record too long to read keeps its place in the chain: the records before and after it stay one branch.
    const skipped = line.skippedHead ?? skippedHeads.get(line.no);
    skippedHeads.delete(line.no);
    if (skipped !== undefined && file.accept(skipped, line.no)) index.addHead(skipped, line.no, file.warn);
    for (const record of records) {
      if (!file.accept(record, line.no)) continue;
      index.add(record, line.no, file.warn);
      if (first === undefined && typeof record.timestamp === 'string') first = validTimestamp(record.timestamp);
    }
    return clean;
  };
  const onLine = (line: TranscriptLine) => {
    lines = line.no;
    if (line.bytes > longest) longest = line.bytes;
    const head = previews || line.overLong || line.invalidUtf8
      ? undefined : readRecordHead(line.buf, line.start, line.end, first === undefined);
    // A huge line is read again in the second pass, without what no pass reads (a line the head scan took is
    // valid JSON, as is one parsed cleanly).
    if (head !== undefined) onHead(head, line.no);
    if (head !== undefined || onParsed(line)) file.noteUnread(line);
  };
  if (pool === undefined || previews) {
    while (file.readChunk(scan, onLine));
  } else {
    const wanted = (line: TranscriptLine) => {
      if (line.bytes > longest) longest = line.bytes;
      if (line.skippedHead !== undefined) skippedHeads.set(line.no, line.skippedHead);
      return true;
    };
    // An over-long line's skipped head does not travel with the chunk (see skippedHeads).
    const taskLine = { skippedHead: undefined } as TranscriptLine;
    for await (const result of passChunks(file, scan, pool, 'heads', wanted)) {
      const { task, heads } = result as HeadsResult;
      forEachTaskLine<TranscriptLine>(task, (line, i) => {
        // A chunk no worker scanned (heads empty: the worker could not, or failed) is scanned here.
        if (heads.length > 0 && heads[i * HEAD_INTS]! >= 0) {
          lines = line.no;
          onHead(decodeRecordHead(line.buf, heads, i * HEAD_INTS, first === undefined), line.no);
        } else {
          onLine(line);
        }
      }, taskLine);
    }
  }
  return { index, bytes: scan.summary.bytes, first, regular, lines, longest };
}

function validTimestamp(value: string): string | undefined {
  try {
    return resolveTimestamp(value, '');
  } catch {
    return undefined;
  }
}
