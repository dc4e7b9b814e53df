// Where Gemini CLI 0.61.0 keeps a project's chats: `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, the
// slug resolved as the CLI's own project registry does (projects.json, then `.project_root` ownership markers,
// then a new slug), under the same `projects.json.lock` directory lock, so a writer and a running CLI agree.
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { makeDirsBelow } from '../../session/append-file.js';
import { withDefaultSignals } from '../../util/default-signals.js';
import { makeDirs } from '../../util/fs-errors.js';
import { readOwnFile, writeNewFile } from '../../util/small-file.js';
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

/** A slug this long or longer is cut and given a hash of the path: a directory name stays under NAME_MAX. */
const MAX_SLUG = 200;
/** How many slugs (`<slug>`, `<slug>-1`, ...) are tried before giving up: each other owner takes one. */
const MAX_SLUG_TRIES = 1000;

/** The CLI's slug of a directory name: lower case, runs of anything but [a-z0-9] as one `-`, never empty. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';
}

/**
 * The slug a new project claims: `slugify(basename)`, except that one over MAX_SLUG characters (the CLI's own
 * would not fit a file name) is cut and ends in 12 hex of the path's SHA-256, still `[a-z0-9-]+` as the
 * registry requires; the CLI finds it through the registry entry and the markers.
 */
export function projectSlug(project: string): string {
  const slug = slugify(basename(project) || 'project');
  if (slug.length <= MAX_SLUG) return slug;
  return `${slug.slice(0, MAX_SLUG - 13)}-${projectHash(project).slice(0, 12)}`;
}

/** `projectHash` of a chat's metadata: the SHA-256 hex of the project path. */
export function projectHash(projectPath: string): string {
  return createHash('sha256').update(projectPath).digest('hex');
}

/** `session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`, the time in UTC as the CLI names its own. */
export function chatFileName(started: Date, sessionId: string): string {
  return `session-${started.toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`;
}

type Registry = { projects: Record<string, string> };

/** The registry as the CLI validates it (every slug `[a-z0-9-]+`); anything else counts as empty, as there. */
function loadRegistry(path: string): Registry {
  let parsed: unknown;
  try {
    const text = readOwnFile(path)?.text;
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
  if (!writeNewFile(tmp, JSON.stringify(registry, null, 2))) throw new Error(`${tmp} exists`);
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

/** Make the lock directory; false when it exists. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Wait for the lock another process holds, up to LOCK_TIMEOUT_MS, taking over one left untouched for
 * LOCK_STALE_MS as the CLI does. The wait blocks the event loop (opening a session is synchronous), so a
 * signal meanwhile takes its default action: nothing of this run is written yet, and the lock is not ours.
 */
function waitForLock(lock: string): void {
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  withDefaultSignals(() => {
    // Every pass either takes the lock or reaches the deadline check: nothing planted there loops for ever.
    for (;;) {
      const stat = lstatSync(lock, { throwIfNoEntry: false });
      if (stat !== undefined && !stat.isDirectory()) throw new Error(`${lock} is not a lock directory; remove it`);
      let wait = stat !== undefined; // gone: released between our mkdir and our look, so try again at once
      if (stat !== undefined && stat.mtimeMs < Date.now() - LOCK_STALE_MS) {
        try {
          rmdirSync(lock);
          wait = false;
        } catch { /* someone else took it over */ }
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by another process (a running gemini?); try again`);
      if (wait) sleep(LOCK_RETRY_MS);
      if (tryLock(lock)) return;
    }
  });
}

/**
 * Run `body` holding the CLI's registry lock: the directory `<registry>.lock`, made with mkdir (proper-lockfile's
 * protocol). A lock left untouched for 10 s is stale and taken over, as the CLI does.
 */
function withRegistryLock<T>(registry: string, body: () => T): T {
  const lock = `${registry}.lock`;
  if (!tryLock(lock)) waitForLock(lock);
  try {
    return body();
  } finally {
    try { rmdirSync(lock); } catch { /* already gone: nothing to release */ }
  }
}

/** Who owns slug directory `dir` by its marker: the path, undefined without a marker, null when unreadable. */
function markerOwner(dir: string): string | undefined | null {
  try {
    const text = readOwnFile(join(dir, MARKER_FILE))?.text;
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
    // A file where a base directory belongs would make every marker unreadable: refused here, once.
    for (const base of this.bases) makeDirsBelow(root, base);
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

  /** `projectSlug`, then `-1`, `-2`, ... until neither the registry nor a marker names another project. */
  private claim(project: string, registry: Registry): string {
    const slug = projectSlug(project);
    const taken = new Set(Object.values(registry.projects));
    for (let counter = 0; counter < MAX_SLUG_TRIES; counter += 1) {
      const candidate = counter === 0 ? slug : `${slug}-${counter}`;
      if (taken.has(candidate)) continue;
      if (!this.owns(candidate, project)) continue;
      if (this.ensureMarkers(candidate, project)) return candidate;
    }
    throw new Error(`no free project directory for ${slug} in ${join(this.root, 'tmp')} after ${MAX_SLUG_TRIES} tries`);
  }

  /** Write the missing markers of `slug` for `project`; false when one names another project. */
  private ensureMarkers(slug: string, project: string): boolean {
    for (const base of this.bases) {
      const dir = join(base, slug);
      makeDirsBelow(this.root, dir);
      if (writeNewFile(join(dir, MARKER_FILE), project)) continue;
      if (markerOwner(dir) !== project) return false;
    }
    return true;
  }
}

/**
 * The slug of `project` (an absolute path) in the Gemini root `root`: the registry's entry when the markers
 * agree, else the directory whose marker names it, else a new one. The markers and the registry entry are
 * written as the CLI would, under its lock. Nothing of the path but its slugified base name (see
 * projectSlug) becomes a file name.
 */
export function resolveProjectSlug(root: string, project: string): string {
  makeDirs(root);
  const registryPath = join(root, REGISTRY_FILE);
  const st = (() => {
    try { return lstatSync(registryPath); } catch { return undefined; }
  })();
  if (st?.isSymbolicLink()) throw new Error(`${registryPath} is a symbolic link; it is not followed`);
  return withRegistryLock(registryPath, () => {
    // proper-lockfile locks an existing file: the CLI creates an empty registry, and so do we (once the lock is
    // ours, so a signal while it is waited for leaves nothing behind).
    if (!st) writeNewFile(registryPath, JSON.stringify({ projects: {} }, null, 2));
    const registry = loadRegistry(registryPath);
    const slug = new SlugResolver(root).resolve(project, registry);
    if (registry.projects[project] !== slug) {
      registry.projects[project] = slug;
      saveRegistry(registryPath, registry);
    }
    return slug;
  });
}
