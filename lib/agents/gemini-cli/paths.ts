// Where Gemini CLI 0.61.0 keeps a project's chats: `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, the
// slug resolved as the CLI's own project registry does (projects.json, then `.project_root` ownership markers,
// then a new slug), under the same `projects.json.lock` directory lock, so a writer and a running CLI agree.
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync,
  unlinkSync, writeSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { makeDirsBelow } from '../../session/append-file.js';
import { isObject } from '../../util/is-object.js';

/** The registry file and its lock directory (proper-lockfile's `<file>.lock`), in the root. */
export const REGISTRY_FILE = 'projects.json';
/** The ownership marker in each slug directory: the project path it belongs to. */
export const MARKER_FILE = '.project_root';
/** The two places that carry ownership markers, as the CLI checks them. */
const MARKER_BASES = ['tmp', 'history'] as const;
/** The CLI gives up on the lock after 10 s and treats one untouched for 10 s as stale (proper-lockfile). */
const LOCK_TIMEOUT_MS = 10_000;
const LOCK_STALE_MS = 10_000;
const LOCK_RETRY_MS = 100;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The CLI's slug of a directory name: lower case, runs of anything but [a-z0-9] as one `-`, never empty. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';
}

/** `projectHash` of a chat's metadata: the SHA-256 hex of the project path. */
export function projectHash(projectPath: string): string {
  return createHash('sha256').update(projectPath).digest('hex');
}

/** `session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`, the time in UTC as the CLI names its own. */
export function chatFileName(started: Date, sessionId: string): string {
  return `session-${started.toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`;
}

/** A file below the root read without following a symlink, or undefined when it does not exist. */
function readNoFollow(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Create `path` with `text`, exclusively, mode 0600; false when it already exists. */
function createFile(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

type Registry = { projects: Record<string, string> };

/** The registry as the CLI validates it (every slug `[a-z0-9-]+`); anything else counts as empty, as there. */
function loadRegistry(path: string): Registry {
  let parsed: unknown;
  try {
    const text = readNoFollow(path);
    if (text === undefined) return { projects: {} };
    parsed = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return { projects: {} };
    throw error;
  }
  if (!isObject(parsed) || !isObject(parsed.projects)) return { projects: {} };
  const projects: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.projects)) {
    if (typeof value !== 'string' || !/^[a-z0-9-]+$/.test(value)) return { projects: {} };
    projects[key] = value;
  }
  return { projects };
}

/** Replace the registry as the CLI does: a temporary file beside it, renamed over it. */
function saveRegistry(path: string, registry: Registry): void {
  const tmp = `${path}.${randomUUID()}.tmp`;
  if (!createFile(tmp, JSON.stringify(registry, null, 2))) throw new Error(`${tmp} exists`);
  try {
    renameSync(tmp, path);
  } catch (error) {
    try { unlinkSync(tmp); } catch { /* gone already */ }
    throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Run `body` holding the CLI's registry lock: the directory `<registry>.lock`, made with mkdir (proper-lockfile's
 * protocol). A lock left untouched for 10 s is stale and taken over, as the CLI does.
 */
function withRegistryLock<T>(registry: string, body: () => T): T {
  const lock = `${registry}.lock`;
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let mtime: number | undefined;
    try {
      mtime = statSync(lock).mtimeMs;
    } catch {
      continue; // released between our mkdir and our look: try again at once
    }
    if (mtime < Date.now() - LOCK_STALE_MS) {
      try { rmdirSync(lock); } catch { /* someone else took it over */ }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} is held by another process (a running gemini?); try again`);
    sleep(LOCK_RETRY_MS);
  }
  try {
    return body();
  } finally {
    try { rmdirSync(lock); } catch { /* already gone: nothing to release */ }
  }
}

/** Who owns slug directory `dir` by its marker: the path, undefined without a marker, null when unreadable. */
function markerOwner(dir: string): string | undefined | null {
  try {
    const text = readNoFollow(join(dir, MARKER_FILE));
    return text === undefined ? undefined : resolve(text.trim());
  } catch {
    return null;
  }
}

/** Resolves project paths to slugs in one Gemini root, as the CLI's ProjectRegistry does. */
class SlugResolver {
  private readonly bases: string[];

  constructor(private readonly root: string) {
    this.bases = MARKER_BASES.map((base) => join(root, base));
  }

  resolve(project: string, registry: Registry): string {
    const known = registry.projects[project];
    if (known !== undefined) {
      if (this.owns(known, project)) {
        this.ensureMarkers(known, project);
        return known;
      }
      delete registry.projects[project];
    }
    return this.findExisting(project) ?? this.claim(project, registry);
  }

  /** No marker contradicts the registry's entry (a missing one is fine; the CLI writes it). */
  private owns(slug: string, project: string): boolean {
    return this.bases.every((base) => {
      const owner = markerOwner(join(base, slug));
      return owner === undefined || owner === project;
    });
  }

  /** A slug directory whose marker names the project (the registry lost its entry). */
  private findExisting(project: string): string | undefined {
    for (const base of this.bases) {
      let names: string[];
      try {
        names = readdirSync(base);
      } catch {
        continue;
      }
      for (const name of names) {
        if (markerOwner(join(base, name)) !== project) continue;
        this.ensureMarkers(name, project);
        return name;
      }
    }
    return undefined;
  }

  /** `slugify(basename)`, then `-1`, `-2`, ... until neither the registry nor a marker names another project. */
  private claim(project: string, registry: Registry): string {
    const slug = slugify(basename(project) || 'project');
    const taken = new Set(Object.values(registry.projects));
    for (let counter = 0; ; counter += 1) {
      const candidate = counter === 0 ? slug : `${slug}-${counter}`;
      if (taken.has(candidate)) continue;
      if (!this.owns(candidate, project)) continue;
      if (this.ensureMarkers(candidate, project)) return candidate;
    }
  }

  /** Write the missing markers of `slug` for `project`; false when one names another project. */
  private ensureMarkers(slug: string, project: string): boolean {
    for (const base of this.bases) {
      const dir = join(base, slug);
      makeDirsBelow(this.root, dir);
      if (createFile(join(dir, MARKER_FILE), project)) continue;
      if (markerOwner(dir) !== project) return false;
    }
    return true;
  }
}

/**
 * The slug of `project` (an absolute path) in the Gemini root `root`: the registry's entry when the markers
 * agree, else the directory whose marker names it, else a new one. The markers and the registry entry are
 * written as the CLI would, under its lock. Nothing of the path but its slugified base name becomes a file name.
 */
export function resolveProjectSlug(root: string, project: string): string {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const registryPath = join(root, REGISTRY_FILE);
  const st = (() => {
    try { return lstatSync(registryPath); } catch { return undefined; }
  })();
  if (st?.isSymbolicLink()) throw new Error(`${registryPath} is a symbolic link; it is not followed`);
  // proper-lockfile locks an existing file: the CLI creates an empty registry first, and so do we.
  if (!st) createFile(registryPath, JSON.stringify({ projects: {} }, null, 2));
  return withRegistryLock(registryPath, () => {
    const registry = loadRegistry(registryPath);
    const slug = new SlugResolver(root).resolve(project, registry);
    if (registry.projects[project] !== slug) {
      registry.projects[project] = slug;
      saveRegistry(registryPath, registry);
    }
    return slug;
  });
}
