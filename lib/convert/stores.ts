// The sessions of the stores a convert run lists (OpenCode's database): each session's input lines are copied
// into a file of a private temporary directory (named by a count, never by anything read), stamped with the
// session's last update, and converted as a source of its own, keyed `<database>#<session id>` in the manifest.
// A session the store holds as a child (a subagent's) is a subagent source. The directory goes with `close`.
import { closeSync, fstatSync, futimesSync, openSync, realpathSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '../session/types.js';
import { makeTempDir, removeTempDir } from '../util/temp-dirs.js';
import { cannotBeRead } from '../util/fs-errors.js';
import type { Discovered } from './discover.js';
import { lookupProblem, storeSessionsById } from '../agents/find-sessions.js';

/** The listing with each store replaced by its sessions; `close` removes their copies. */
export interface ExpandedSources {
  discovered: Discovered[];
  close(): Promise<void>;
}

/** Replace each store in `discovered` by a source per session; a store that cannot be read is an error item. */
export async function expandStores(discovered: readonly Discovered[], options: {
  env: Record<string, string | undefined>; tmpdir: string; warn: (message: string) => void;
}): Promise<ExpandedSources> {
  if (!discovered.some((item) => item.kind === 'store')) return { discovered: [...discovered], close: async () => {} };
  const dir = makeTempDir(options.tmpdir, 'asyncai-log-convert-');
  const out: Discovered[] = [];
  let count = 0;
  try {
    for (const item of discovered) {
      if (item.kind !== 'store') {
        out.push(item);
        continue;
      }
      let opened;
      try {
        opened = await item.agent.store.open(item.db, { env: options.env, tmpdir: options.tmpdir });
      } catch (error) {
        if (!(error instanceof StoreError) && typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
        out.push({ kind: 'error', path: item.path, error: error instanceof StoreError ? error.message : cannotBeRead(error) });
        continue;
      }
      try {
        const real = realpathSync(item.db);
        if (opened.odd > 0) options.warn(`${item.path}: ${opened.odd} session${opened.odd === 1 ? '' : 's'} whose id is not of ${item.agent.store.name}'s shape, not converted`);
        let wanted = opened.sessions;
        if (item.only !== undefined) {
          wanted = storeSessionsById(opened.sessions, item.only);
          const problem = lookupProblem(wanted.map((s) => ({ id: s.id, format: item.agent.format })), `in ${item.db}`);
          if (problem !== undefined) {
            out.push({ kind: 'error', path: item.only, error: problem });
            continue;
          }
        }
        for await (const { session, lines } of opened.read(wanted)) {
          count += 1;
          const file = join(dir, `${count}.jsonl`);
          const fd = openSync(file, 'wx', 0o600);
          try {
            for (const line of lines) writeSync(fd, `${line}\n`);
            // The session's last update is the copy's mtime: an unchanged session is unchanged without being read.
            futimesSync(fd, session.updated / 1000, session.updated / 1000);
            const st = fstatSync(fd);
            out.push({ kind: 'source', source: {
              path: `${item.path}#${session.id}`, real: `${real}#${session.id}`, bytes: Buffer.from(file), size: st.size,
              mtimeMs: st.mtimeMs, id: `${real}#${session.id}`, sidecar: session.child, ...(item.only !== undefined ? { byId: true } : {}),
            } });
          } finally {
            closeSync(fd);
          }
        }
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        out.push({ kind: 'error', path: item.path, error: error.message });
      } finally {
        await opened.close();
      }
    }
  } catch (error) {
    await removeTempDir(dir);
    throw error;
  }
  return { discovered: out, close: () => removeTempDir(dir) };
}
