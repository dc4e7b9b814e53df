// Where `sessions --grep`'s text is in one session (grep.ts): each event whose conversation text holds it, in
// any case (conversationText: user, assistant, thinking, tool calls and results, compaction summaries), counted,
// the first MOST_HITS kept with their number in the conversation and the text around.
import type { GenericEvent } from '../events.js';
import { conversationText, fileEvents } from './events.js';
import type { Prefilter } from './prefilter.js';

/** One place a session matched. */
export interface GrepHit {
  /** The event's type (`user`, `assistant`, `tool_result`, ...). */
  event: string;
  /** The event's number in the session's conversation, from 1. */
  index: number;
  /** The text around the match, on one line. */
  snippet: string;
}

/** A session's hits: the first MOST_HITS, and how many events matched. */
export interface FoundHits {
  hits: GrepHit[];
  count: number;
}

/** The most hits kept per session (the count goes on). */
export const MOST_HITS = 5;
const SNIPPET_AROUND = 30;

/** A snippet of `text` around its first match of `lower` (case-folded), on one line. */
export function snippetAround(text: string, lower: string): string | undefined {
  const at = text.toLowerCase().indexOf(lower);
  if (at === -1) return undefined;
  const start = Math.max(0, at - SNIPPET_AROUND);
  const end = Math.min(text.length, at + lower.length + SNIPPET_AROUND);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/** Collects the hits of a needle in a stream of events (undefined: an event passed over, counted). */
export class Hits implements FoundHits {
  readonly hits: GrepHit[] = [];
  count = 0;
  private index = 0;

  constructor(private readonly lower: string) {}

  readonly sink = (events: readonly (GenericEvent | undefined)[]): boolean => {
    for (const event of events) {
      this.index += 1;
      if (event === undefined) continue;
      const text = conversationText(event);
      if (text === undefined) continue;
      const snippet = snippetAround(text, this.lower);
      if (snippet === undefined) continue;
      this.count += 1;
      if (this.hits.length < MOST_HITS) this.hits.push({ event: event.type, index: this.index, snippet });
    }
    return true;
  };
}

/**
 * The hits of `needle` in the session file at `path`, read through its reader; of a transcript reader's events,
 * only those whose line `filter` (the needle's forms) passes are parsed. None when it cannot be read.
 */
export async function fileHits(path: string, needle: string, filter: Prefilter): Promise<FoundHits> {
  const hits = new Hits(needle.toLowerCase());
  await fileEvents(path, hits.sink, { wanted: (line) => filter.holds(line) }).catch(() => false);
  return { hits: hits.hits, count: hits.count };
}
