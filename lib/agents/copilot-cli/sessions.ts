// Copilot CLI's sessions by id (`read <id>`, `convert <id>`): `<root>/session-state/<uuid>/events.jsonl`, the folder
// named by the session id, so only directory listings are read; a folder without its events file holds no session.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { grouped, namesIn, startsWithId, UUID_PREFIX } from '../../session/session-lookup.js';
import { EVENTS_FILE, isUuid, sessionStateDir } from './paths.js';
import { cutText, isoTime } from '../../session/session-facts.js';
import { readOwnFile } from '../../util/small-file.js';

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
  // The session folder's `workspace.yaml` (flat `key: value` lines): its summary, else its name; cwd; created_at.
  describe(files) {
    let text: string | undefined;
    try {
      text = readOwnFile(join(dirname(files[0]!), 'workspace.yaml'), 64 * 1024)?.text;
    } catch { /* not a plain file: the generic facts stand */ }
    if (text === undefined) return {};
    const field = (key: string) => {
      const value = new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(text!)?.[1]?.trim();
      return value === undefined || value === '' ? undefined : value.replace(/^(["'])(.*)\1$/, '$2');
    };
    const title = field('summary') ?? field('name');
    const cwd = field('cwd');
    const started = isoTime(field('created_at'));
    return {
      ...(title !== undefined ? { title: cutText(title) } : {}),
      ...(cwd !== undefined && isAbsolute(cwd) ? { cwd } : {}),
      ...(started !== undefined ? { started } : {}),
    };
  },
};
