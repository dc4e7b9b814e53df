// Copilot CLI's sessions by id (`read <id>`, `convert <id>`): `<root>/session-state/<uuid>/events.jsonl`, the folder
// named by the session id, so only directory listings are read; a folder without its events file holds no session.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { grouped, namesIn, startsWithId, UUID_PREFIX } from '../../session/session-lookup.js';
import { EVENTS_FILE, isUuid, sessionStateDir } from './paths.js';

export const copilotSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const dir = sessionStateDir(root);
    const found: [string, string][] = [];
    for (const id of await namesIn(dir, 'dir')) {
      const file = join(dir, id, EVENTS_FILE);
      if (isUuid(id) && startsWithId(id, prefix) && existsSync(file)) found.push([id, file]);
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(sessionStateDir(root)),
};
