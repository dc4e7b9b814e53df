// Qwen Code's sessions by id (`read <id>`, `convert <id>`): `<root>/projects/<project>/chats/<sessionId>.jsonl`
// (archived ones in `chats/archive/` are not listed by the CLI either), so only directory listings are read.
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { filesById, grouped, namesIn, UUID_PREFIX } from '../../session/session-lookup.js';
import { CHAT_FILE } from './paths.js';
import { latestTitle } from '../../session/session-facts.js';
import { isObject } from '../../util/is-object.js';

export const qwenSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const projects = join(root, 'projects');
    const found: [string, string][] = [];
    for (const project of await namesIn(projects, 'dir')) {
      found.push(...await filesById(join(projects, project, 'chats'), prefix, (name) => (CHAT_FILE.test(name) ? name.slice(0, -'.jsonl'.length) : undefined)));
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'projects'),
  // `qwen sessions list`'s title: the latest `custom_title` system record's (else the first prompt).
  describe: (_files, ends) => {
    const title = latestTitle(ends, (r) => (r.type === 'system' && r.subtype === 'custom_title' && isObject(r.systemPayload) ? r.systemPayload.customTitle : undefined));
    return title === undefined ? {} : { title };
  },
};
