// Where Qwen Code 0.24.4 keeps its chats: `<base>/projects/<cwd with every UTF-16 unit outside [A-Za-z0-9] as
// "-">/chats/<sessionId>.jsonl` (its `sanitizeCwd`: no length limit, no hash), the base being $QWEN_RUNTIME_DIR,
// else the user settings' `advanced.runtimeOutputDir`, else $QWEN_HOME, else ~/.qwen. Only UUID-like file names
// are sessions to it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isObject } from '../../util/is-object.js';

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

/** The CLI's own directory (`getGlobalQwenDir`): `$QWEN_HOME`, else `~/.qwen`; its `settings.json` is the user's settings. */
export function qwenHome(env: Record<string, string | undefined>, homedir: string): string {
  const home = env.QWEN_HOME;
  if (home !== undefined && home !== '') return expand(home, homedir);
  return join(homedir, '.qwen');
}

/** Bytes of a settings file read at most (a settings file is a few hundred bytes). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * `advanced.runtimeOutputDir` of the user settings (`<qwen home>/settings.json`), or undefined: none, not a
 * string, or a settings file that cannot be read or is not JSON (the CLI then says so itself).
 */
export function runtimeOutputDir(env: Record<string, string | undefined>, homedir: string): string | undefined {
  let settings: unknown;
  try {
    const text = readFileSync(join(qwenHome(env, homedir), 'settings.json'), 'utf8');
    if (text.length > MAX_SETTINGS_BYTES) return undefined;
    settings = JSON.parse(text);
  } catch {
    return undefined;
  }
  const advanced = isObject(settings) ? settings.advanced : undefined;
  const dir = isObject(advanced) ? advanced.runtimeOutputDir : undefined;
  return typeof dir === 'string' && dir !== '' ? dir : undefined;
}

/**
 * The CLI's runtime base, where its chats are: `$QWEN_RUNTIME_DIR`, else the user settings'
 * `advanced.runtimeOutputDir` (`~` expanded; a relative one from the current directory, where the CLI takes it
 * from the project's), else `$QWEN_HOME`, else `~/.qwen`.
 */
export function qwenRoot(env: Record<string, string | undefined>, homedir: string): string {
  const runtime = env.QWEN_RUNTIME_DIR;
  if (runtime !== undefined && runtime !== '') return expand(runtime, homedir);
  const configured = runtimeOutputDir(env, homedir);
  if (configured !== undefined) return expand(configured, homedir);
  return qwenHome(env, homedir);
}
