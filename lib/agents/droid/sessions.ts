// Factory Droid's sessions by id (`read <id>`, `convert <id>`): `<root>/sessions/<project>/<uuid>.jsonl`, the file
// named by the session id (its `<uuid>.settings.json` beside it is not a session), so only directory listings are read.
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { filesById, grouped, namesIn, UUID_PREFIX } from '../../session/session-lookup.js';
import { latestTitle } from '../../session/session-facts.js';

const SESSION_FILE = /^([0-9a-f-]{36})\.jsonl$/i;

export const droidSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const sessions = join(root, 'sessions');
    const found: [string, string][] = [];
    for (const project of await namesIn(sessions, 'dir')) {
      found.push(...await filesById(join(sessions, project), prefix, (name) => SESSION_FILE.exec(name)?.[1]));
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'sessions'),
  // The title droid keeps in the `session_start` record that opens the file.
  describe: (_files, ends) => {
    const title = latestTitle({ head: ends.head.slice(0, 1), tail: [] }, (r) => (r.type === 'session_start' ? r.title : undefined));
    return title === undefined ? {} : { title };
  },
};
