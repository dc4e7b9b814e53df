// Finding a session's transcript from its uuid: `<root>/projects/*/<uuid>.jsonl`, root being the Claude Code
// harness's storage root (`--session-dir claude-code-cli=<path>`, else $CLAUDE_CONFIG_DIR, else ~/.claude).
// The uuid comes from the command line, so it must look like one before it is used in a path.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

/** What a session id must look like before it becomes part of a path. */
export const SESSION_UUID = /^[0-9a-f-]{36}$/i;

/** Whether `value` is a bare session uuid (rather than a path). */
export function isSessionUuid(value: string): boolean {
  return SESSION_UUID.test(value);
}

/**
 * Every transcript of session `uuid` under `<root>/projects/` (normally one), sorted by project directory.
 * Throws when `uuid` is not a session uuid.
 */
export async function findSessionTranscripts(root: string, uuid: string): Promise<string[]> {
  if (!isSessionUuid(uuid)) throw new Error(`not a session uuid: ${JSON.stringify(uuid)}`);
  const projects = join(root, 'projects');
  let dirs: string[];
  try {
    dirs = (await fsp.readdir(projects)).sort();
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const dir of dirs) {
    const candidate = join(projects, dir, `${uuid}.jsonl`);
    try {
      if ((await fsp.stat(candidate)).isFile()) found.push(candidate);
    } catch {
      // Not in this project.
    }
  }
  return found;
}
