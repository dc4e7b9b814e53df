// Codex's sessions by id (`read <id>`, `convert <id>`): `<root>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`,
// the id at the end of the file name, so only directory listings are read.
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { filesById, grouped, namesIn, UUID_PREFIX } from '../../session/session-lookup.js';

const ROLLOUT_NAME = /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export const codexSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const sessions = join(root, 'sessions');
    const found: [string, string][] = [];
    for (const year of await namesIn(sessions, 'dir')) {
      for (const month of await namesIn(join(sessions, year), 'dir')) {
        for (const day of await namesIn(join(sessions, year, month), 'dir')) {
          found.push(...await filesById(join(sessions, year, month, day), prefix, (name) => ROLLOUT_NAME.exec(name)?.[1]));
        }
      }
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'sessions'),
};
