// Where Qwen Code 0.24.4 keeps its chats: `<base>/projects/<cwd with every UTF-16 unit outside [A-Za-z0-9] as
// "-">/chats/<sessionId>.jsonl` (its `sanitizeCwd`: no length limit, no hash), the base being $QWEN_RUNTIME_DIR,
// else $QWEN_HOME, else ~/.qwen. Only UUID-like file names are sessions to it.
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';

/** The longest file name a file system takes: the CLI's own name for a longer project cannot exist. */
const NAME_MAX = 255;

/** The project folder name for a project directory, as the CLI's `sanitizeCwd` (POSIX: not lower-cased). */
export function projectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The folder name written for a project: the CLI's, or, when that is too long to exist (the CLI itself cannot
 * keep sessions there), its first 200 characters and a hash of the directory, so the run still ends whole.
 */
export function writtenDirName(cwd: string): { name: string; cut: boolean } {
  const name = projectDirName(cwd);
  if (name.length <= NAME_MAX) return { name, cut: false };
  return { name: `${name.slice(0, 200)}-${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`, cut: true };
}

/** A chat file's name: the CLI lists only names matching this. */
export const CHAT_FILE = /^[0-9a-fA-F-]{32,36}\.jsonl$/;

/** Whether `value` is a session id the CLI would find (`--resume` takes only a full UUID-like id). */
export function isSessionId(value: string): boolean {
  return CHAT_FILE.test(`${value}.jsonl`);
}

/** The chats folder of project `cwd` under `root`. */
export function chatsDir(root: string, cwd: string): string {
  return join(root, 'projects', writtenDirName(cwd).name, 'chats');
}

function expand(dir: string, homedir: string): string {
  if (dir === '~') return homedir;
  if (dir.startsWith('~/')) return join(homedir, dir.slice(2));
  return isAbsolute(dir) ? dir : resolve(dir);
}

/** The CLI's runtime base: `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else `~/.qwen` (settings' runtimeOutputDir is not read). */
export function qwenRoot(env: Record<string, string | undefined>, homedir: string): string {
  const runtime = env.QWEN_RUNTIME_DIR;
  if (runtime !== undefined && runtime !== '') return expand(runtime, homedir);
  const home = env.QWEN_HOME;
  if (home !== undefined && home !== '') return expand(home, homedir);
  return join(homedir, '.qwen');
}
