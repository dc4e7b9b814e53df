// The project OpenCode (1.18.33) and Kilo (7.7.7) give a directory: a git repository's id is the SHA-1 of its
// normalised `origin` remote, else the id cached in `<git common dir>/<the CLI's file>` (`opencode`, `kilo`), else
// its root commit; outside git it is `global`.
// git runs with a fixed argv in the directory, never through a shell.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

export interface OpencodeProject {
  id: string;
  /** The repository's top level (`/` for `global`). */
  worktree: string;
  vcs?: 'git';
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return process.getBuiltinModule('node:child_process').execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/** `host/path` of a remote URL (`https://host/o/r.git`, `ssh://git@host/o/r`, `git@host:o/r.git`), or undefined. */
export function remoteKey(url: string): string | undefined {
  let host: string;
  let path: string;
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(url);
  if (scp && !url.includes('://')) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    try {
      const parsed = new URL(url);
      host = parsed.hostname;
      path = parsed.pathname;
    } catch {
      return undefined;
    }
  }
  path = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  if (host === '' || path === '') return undefined;
  return `${host.toLowerCase()}/${path}`;
}

/** The project directory `dir` (absolute, existing) has, its id cached in `<git common dir>/<cacheFile>` when no remote names it. */
export function resolveProject(dir: string, cacheFile: string): OpencodeProject {
  const top = git(dir, ['rev-parse', '--show-toplevel']);
  if (top === undefined || top === '') return { id: 'global', worktree: '/' };
  const remote = git(dir, ['config', '--get', 'remote.origin.url']);
  const key = remote ? remoteKey(remote) : undefined;
  if (key !== undefined) return { id: createHash('sha1').update(`git-remote:${key}`).digest('hex'), worktree: top, vcs: 'git' };
  const common = git(dir, ['rev-parse', '--git-common-dir']);
  if (common) {
    try {
      const cached = readFileSync(join(resolve(dir, common), cacheFile), 'utf8').trim();
      if (cached !== '') return { id: cached, worktree: top, vcs: 'git' };
    } catch {
      // No cached id: the root commit names it.
    }
  }
  const root = git(dir, ['rev-list', '--max-parents=0', 'HEAD'])?.split('\n')[0];
  return root ? { id: root, worktree: top, vcs: 'git' } : { id: 'global', worktree: '/' };
}

/** `session.path`: the directory relative to the project's worktree. */
export function sessionPath(project: OpencodeProject, dir: string): string {
  const path = relative(project.worktree, dir);
  return isAbsolute(path) ? dir : path;
}
