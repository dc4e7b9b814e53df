// The events an input format gives only at the end of a file: mapped from what the adapter held, or, for one that
// held lines by number (a Claude Code transcript: InputAdapter.endFrom), taken as those lines are read again from
// the file (file-read.ts rereadLines) and written a megabyte of the file at a time, the event loop turning between.
import type { GenericEvent } from '../events.js';
import type { InputAdapter } from '../input/types.js';
import type { JsonSource } from '../json/raw-json.js';
import type { UnreadMembers } from '../json/unread-members.js';
import { rereadLines, type RereadProgress } from './file-read.js';

/** The end's events are written whenever the file read again for them has moved on this far. */
const TAIL_WRITE_BYTES = 1024 * 1024;

/** Where the end's events go. */
export interface TailSink {
  /** One event, with the source of its line's long strings when it has one. */
  emit(event: GenericEvent, source?: JsonSource): void;
  /** A warning of the adapter's. */
  warn(message: string): void;
  /** Write the events given so far. */
  flush(): void;
}

export interface TailOptions {
  /** The line limit the file was read with. */
  maxLineBytes?: number | undefined;
  /** A full garbage collection: run before the file is read again and before a huge line is. */
  collect?: (() => void) | undefined;
  /** Where the members the adapter never reads lie in the huge lines it may want again. */
  members?: UnreadMembers | undefined;
}

/** The events `adapter` gives at the end of the file `file`, whose first `size` bytes it was given, to `sink`. */
export async function writeTail(adapter: InputAdapter, file: number, size: number, now: string, sink: TailSink, options: TailOptions): Promise<void> {
  if (adapter.endFrom === undefined) {
    for (const event of adapter.end(now, sink.warn)) sink.emit(event);
    return;
  }
  const { collect } = options;
  // The first read's memory (the huge lines it held) is given back before the second takes its own.
  collect?.();
  const progress: RereadProgress = { bytes: 0 };
  let written = 0;
  const reread = {
    progress,
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
    ...(collect !== undefined ? { beforeHuge: collect } : {}),
    ...(adapter.unread !== undefined ? { unread: adapter.unread } : {}),
    ...(options.members !== undefined ? { members: options.members } : {}),
  };
  for (const { event, source } of adapter.endFrom(now, sink.warn, (wanted) => rereadLines(file, size, wanted, reread))) {
    sink.emit(event, source);
    if (progress.bytes - written >= TAIL_WRITE_BYTES) {
      written = progress.bytes;
      sink.flush();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
