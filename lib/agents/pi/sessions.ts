// Pi's sessions by id (`read <id>`, `convert <id>`): pi's own `--session <prefix>` matches the header's id; the
// files it names `<ISO time>_<uuid>.jsonl` carry it, so only another file's first line is read. Under the root:
// `sessions/--<cwd>--/` of the agent dir, or the files directly (a custom session dir is the root itself).
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../session/types.js';
import { firstLineValue, grouped, namesIn, startsWithId, UUID_PREFIX } from '../../session/session-lookup.js';
import { isObject } from '../../util/is-object.js';
import { latestTitle } from '../../session/session-facts.js';

const FILE_NAME = /_([0-9a-f-]{36})\.jsonl$/i;

/** The `[id, path]` of every session file in `dir` whose id starts with `prefix`. */
async function inDir(dir: string, prefix: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const name of await namesIn(dir, 'file')) {
    if (!name.endsWith('.jsonl')) continue;
    let id = FILE_NAME.exec(name)?.[1];
    if (id === undefined) {
      const header = await firstLineValue(join(dir, name));
      if (isObject(header) && header.type === 'session' && typeof header.id === 'string') id = header.id;
    }
    if (id !== undefined && startsWithId(id, prefix)) out.push([id, join(dir, name)]);
  }
  return out;
}

export const piSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const found = await inDir(root, prefix);
    const sessions = join(root, 'sessions');
    for (const folder of await namesIn(sessions, 'dir')) found.push(...await inDir(join(sessions, folder), prefix));
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'sessions'),
  // Pi's picker title: the latest `session_info` entry's name (else the listing's first user text).
  describe: (_files, ends) => {
    const title = latestTitle(ends, (r) => (r.type === 'session_info' ? r.name : undefined));
    return title === undefined ? {} : { title };
  },
};
