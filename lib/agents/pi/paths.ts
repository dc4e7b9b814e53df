// Where Pi (0.73.1) keeps a session: `<agent dir>/sessions/--<cwd>--/<ISO time>_<uuid>.jsonl`, the agent dir being
// `$PI_CODING_AGENT_DIR` (a leading `~/` is the home), else `~/.pi/agent`; `$PI_CODING_AGENT_SESSION_DIR` holds the
// files directly, with no per-project folder. Names as pi's own `getDefaultSessionDir` and `newSession` make them.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** `~` and `~/...` as pi expands them in its two directory variables. */
function expandTilde(path: string, homedir: string): string {
  if (path === '~') return homedir;
  return path.startsWith('~/') ? homedir + path.slice(1) : path;
}

/** Pi's agent dir: `$PI_CODING_AGENT_DIR`, else `<home>/.pi/agent`. */
export function agentDir(env: Env, homedir: string): string {
  const dir = env.PI_CODING_AGENT_DIR;
  return dir !== undefined && dir !== '' ? expandTilde(dir, homedir) : join(homedir, '.pi', 'agent');
}

/** `$PI_CODING_AGENT_SESSION_DIR` (expanded), where pi keeps every session file directly, or undefined. */
export function customSessionDir(env: Env, homedir: string): string | undefined {
  const dir = env.PI_CODING_AGENT_SESSION_DIR;
  return dir !== undefined && dir !== '' ? expandTilde(dir, homedir) : undefined;
}

/** Longest file name most file systems take, in bytes. */
const MAX_NAME_BYTES = 255;

/**
 * A project's folder name under `sessions/`: the cwd without its leading `/` (or `\`), every `/`, `\` and `:` as
 * `-`, between `--` and `--`. It never is `.` or `..`, and holds no separator, whatever the cwd. A cwd pi could not
 * name a folder for (a NUL in it, a name over 255 bytes: pi itself fails there) gets a name that fits: NUL as `-`,
 * cut, and a hash of the whole cwd (the session is then resumed by its file, as the resume hint says anyway).
 */
export function projectFolder(cwd: string): string {
  const name = `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
  if (!name.includes('\0') && Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const hash = createHash('sha256').update(cwd).digest('hex').slice(0, 16);
  const room = MAX_NAME_BYTES - hash.length - 3;
  // Cut at a byte count; a character the cut split comes back as U+FFFD, dropped.
  const head = Buffer.from(name.slice(0, -2).replace(/\0/g, '-')).subarray(0, room).toString('utf8').replace(/\ufffd+$/, '');
  return `${head}-${hash}--`;
}

/** The file name of session `id` started at `started`: the ISO time with `:` and `.` as `-`, `_`, the id. */
export function sessionFileName(started: Date, id: string): string {
  return `${started.toISOString().replace(/[:.]/g, '-')}_${id}.jsonl`;
}

/** A version 7 UUID (RFC 9562) for `at`, as pi names its sessions: the time in its first 48 bits, then random. */
export function uuidV7(at: Date): string {
  const random = randomUUID().replace(/-/g, '');
  const ms = Math.max(0, Math.min(at.getTime(), 2 ** 48 - 1)).toString(16).padStart(12, '0');
  const hex = `${ms}7${random.slice(13, 16)}${random.slice(16)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** When a session is filed as started: `startedAt` when it is a valid time of four-digit year, else now. */
export function sessionStart(startedAt: string | undefined, now: Date = new Date()): Date {
  if (startedAt === undefined) return now;
  const date = new Date(startedAt);
  const year = date.getUTCFullYear();
  return Number.isNaN(year) || year < 1 || year > 9999 ? now : date;
}

/** `word` as one sh word: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
