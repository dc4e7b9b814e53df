// Where GitHub Copilot CLI (1.0.102) keeps a session: `<root>/session-state/<uuid>/events.jsonl` (the session id is
// the folder's name) beside a `workspace.yaml`, the root being `$COPILOT_HOME`, else `~/.copilot`. A SQLite
// `session-store.db` in the root indexes sessions for search; the CLI adds a session's row when it next uses it.
import { isAbsolute, join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** The CLI's root: `$COPILOT_HOME`, else `<home>/.copilot`. */
export function copilotRoot(env: Env, homedir: string): string {
  const dir = env.COPILOT_HOME;
  if (dir === undefined || dir === '') return join(homedir, '.copilot');
  if (dir === '~') return homedir;
  if (dir.startsWith('~/')) return join(homedir, dir.slice(2));
  return isAbsolute(dir) ? dir : resolve(dir);
}

/** The folder holding one folder per session. */
export function sessionStateDir(root: string): string {
  return join(root, 'session-state');
}

/** The session file's name inside its folder. */
export const EVENTS_FILE = 'events.jsonl';
/** The session's metadata file beside it. */
export const WORKSPACE_FILE = 'workspace.yaml';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (every event id and session id the CLI accepts is one). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** `value` as a YAML double-quoted scalar (JSON's escapes are YAML's). */
function yamlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The `workspace.yaml` the CLI writes for a session: its id, directory and times (the resume picker shows the
 * directory as the session's location; without a `name` it shows the first user text).
 */
export function workspaceYaml(sessionId: string, cwd: string, createdAt: string, updatedAt: string): string {
  return [
    `id: ${sessionId}`,
    `cwd: ${yamlString(cwd)}`,
    'user_named: false',
    'summary_count: 0',
    'fork_count: 0',
    `created_at: ${createdAt}`,
    `updated_at: ${updatedAt}`,
    '',
  ].join('\n');
}
