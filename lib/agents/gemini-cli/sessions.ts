// Gemini CLI's sessions by id (`read <id>`, `convert <id>`): `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`
// (or `.json`). The name holds the id's first 8 characters only: a chat whose 8 fit the prefix has its whole id
// read from its first 64 KiB (the metadata record that opens it), never the whole file.
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { promises as fsp } from 'node:fs';
import type { SessionLookup } from '../../session/types.js';
import { grouped, namesIn, startsWithId, UUID_PREFIX } from '../../session/session-lookup.js';
import { latestTitle } from '../../session/session-facts.js';
import { readOwnFile } from '../../util/small-file.js';
import { MARKER_FILE } from './paths.js';

const CHAT_NAME = /^session-.*-([0-9a-f]{8})\.jsonl?$/i;
const SESSION_ID = /"sessionId"\s*:\s*"([0-9a-fA-F-]{36})"/;
const HEAD_BYTES = 64 * 1024;

/** The `sessionId` the head of the chat at `path` names, or undefined. */
async function chatId(path: string): Promise<string | undefined> {
  let file;
  try {
    file = await fsp.open(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0);
    return SESSION_ID.exec(buf.subarray(0, bytesRead).toString('utf8'))?.[1];
  } catch {
    return undefined;
  } finally {
    await file?.close();
  }
}

export const geminiSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const tmp = join(root, 'tmp');
    const short = prefix.slice(0, 8);
    const found: [string, string][] = [];
    for (const slug of await namesIn(tmp, 'dir')) {
      const chats = join(tmp, slug, 'chats');
      for (const name of await namesIn(chats, 'file')) {
        const named = CHAT_NAME.exec(name)?.[1];
        if (named === undefined || !startsWithId(named, short)) continue;
        const id = await chatId(join(chats, name));
        if (id !== undefined && startsWithId(id, prefix)) found.push([id, join(chats, name)]);
      }
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'tmp'),
  // The title is the metadata's `summary` (a later `$set` may change it); the project, the slug directory's marker.
  describe(files, ends) {
    const title = latestTitle(ends, (r) => (r.$set !== null && typeof r.$set === 'object' ? (r.$set as Record<string, unknown>).summary : r.summary));
    let cwd: string | undefined;
    try {
      const text = readOwnFile(join(dirname(dirname(files[0]!)), MARKER_FILE), 4096)?.text.trim();
      if (text !== undefined && isAbsolute(text)) cwd = text;
    } catch { /* no marker: the generic facts stand */ }
    return { ...(title !== undefined ? { title } : {}), ...(cwd !== undefined ? { cwd } : {}) };
  },
};
