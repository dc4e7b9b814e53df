// Finding a session's transcript from its uuid, or a prefix of one: `<root>/projects/*/<uuid>.jsonl`, root being
// the Claude Code harness's storage root (`--session-dir claude-code-cli=<path>`, else $CLAUDE_CONFIG_DIR, else
// ~/.claude). Only directory listings are read; the value looked up is compared with file names, never joined to a path.
import { join, resolve } from 'node:path';
import type { SessionLookup } from '../../../session/types.js';
import { filesById, grouped, namesIn, UUID_PREFIX } from '../../../session/session-lookup.js';
import { latestTitle } from '../../../session/session-facts.js';

/** What a session id must look like before it becomes part of a path. */
export const SESSION_UUID = /^[0-9a-f-]{36}$/i;

/** Whether `value` is a bare session uuid (rather than a path). */
export function isSessionUuid(value: string): boolean {
  return SESSION_UUID.test(value);
}

const TRANSCRIPT_NAME = /^([0-9a-f-]{36})\.jsonl$/i;

/** Claude Code's sessions by id: every project's `<uuid>.jsonl` (one session may be in two projects: both, sorted by project). */
export const claudeSessions: SessionLookup = {
  matches: (value) => UUID_PREFIX.test(value),
  async find(root, prefix) {
    const projects = join(root, 'projects');
    const found: [string, string][] = [];
    for (const dir of await namesIn(projects, 'dir')) {
      found.push(...await filesById(join(projects, dir), prefix, (name) => TRANSCRIPT_NAME.exec(name)?.[1]));
    }
    return grouped(found);
  },
  sessionsDir: (root) => resolve(root, 'projects'),
  // The title Claude Code's picker shows: a custom title (/rename), else its generated one, else a summary record's.
  describe: (_files, ends) => {
    const title = latestTitle(ends, (r) => (r.type === 'custom-title' ? r.customTitle : undefined))
      ?? latestTitle(ends, (r) => (r.type === 'ai-title' ? r.aiTitle ?? r.title : undefined))
      ?? latestTitle(ends, (r) => (r.type === 'summary' ? r.summary : undefined));
    return title === undefined ? {} : { title };
  },
};

/**
 * Every transcript of session `uuid` under `<root>/projects/` (normally one), sorted by project directory.
 * Throws when `uuid` is not a session uuid.
 */
export async function findSessionTranscripts(root: string, uuid: string): Promise<string[]> {
  if (!isSessionUuid(uuid)) throw new Error(`not a session uuid: ${JSON.stringify(uuid)}`);
  const found = await claudeSessions.find(root, uuid);
  return [...found.find((session) => session.id.toLowerCase() === uuid.toLowerCase())?.files ?? []];
}
