// What a listing learns of one session file by reading it (lib/sessions/list.ts keeps it in the sessions
// index): its head and end described (the generic facts, the agent's own `describe`), its conversation read for
// its user turns and first user text. Here, or on a worker thread (describe-worker.ts).
import type { SessionMatch } from '../agents/find-sessions.js';
import { cutText, fileEnds, genericFacts } from '../session/session-facts.js';
import type { IndexEntry } from './cache.js';
import { fileEvents } from './events.js';

/** What a worker is given to describe (describe-worker.ts): a session file match, by its agent's format. */
export interface DescribeTask {
  format: string;
  id: string;
  files: readonly string[];
  stamp: string;
}

/** What a read of the conversation gives: user turns and the first user text. */
export async function conversationFacts(read: (sink: (events: readonly ({ type: string; text?: string } | undefined)[]) => boolean) => Promise<boolean>):
  Promise<{ turns: number; firstUser?: string; unread?: true }> {
  let turns = 0;
  let firstUser: string | undefined;
  const ok = await read((events) => {
    for (const event of events) {
      if (event?.type !== 'user') continue;
      turns += 1;
      if (firstUser === undefined && typeof event.text === 'string' && event.text.trim() !== '') firstUser = cutText(event.text);
    }
    return true;
  }).catch(() => false);
  return { turns, ...(firstUser !== undefined ? { firstUser } : {}), ...(ok ? {} : { unread: true as const }) };
}

/** A file session's index entry: its head and end described, its user turns read (`whole`: with everything else). */
export async function describeFile(match: SessionMatch, stamp: string, whole = false): Promise<IndexEntry> {
  const first = match.files[0]!;
  const ends = fileEnds(first);
  const generic = genericFacts(ends);
  const own = match.agent.sessions?.describe === undefined ? {} : await match.agent.sessions.describe(match.files, ends);
  const facts = { ...generic, ...own };
  const conversation = await conversationFacts((sink) => fileEvents(first, sink, { usersOnly: !whole }));
  return { format: match.format, id: match.id, stamp, ...facts, ...conversation };
}
