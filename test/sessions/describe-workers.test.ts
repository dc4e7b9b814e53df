// A cold listing of many bytes describes its sessions on worker threads (lib/sessions/describe-worker.ts): each
// session of every agent, as the real CLIs wrote them, gets the index entry the main thread gives it, and a
// worker that fails loses nothing (the main thread describes what it held). The workers run the build (global
// setup makes it).
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { everySession } from '../../lib/agents/find-sessions.js';
import { describeAll, stampOf } from '../../lib/sessions/list.js';
import { dyingWorker, rewritingWorker, type WorkerDeath } from '../support/dying-worker.js';
import { cleanEnv } from '../support/run.js';
import { placeSessions } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER = new URL('dist/lib/sessions/describe-worker.js', `file://${ROOT}/`);

/** The worker `real`, its every reply marked `onWorker` (what the main thread describes is not). */
const marking = (real: URL): URL => rewritingWorker(real, '(reply) => ({ ...reply, onWorker: true })');

const unmarked = (entries: readonly object[]) => entries.map(({ onWorker: _, ...entry }: { onWorker?: true }) => entry);
const marked = (entries: readonly object[]) => entries.filter((entry) => 'onWorker' in entry).length;

async function placed() {
  const { roots } = placeSessions();
  const env = cleanEnv();
  const found = await everySession({ sessionDirs: roots, env, homedir: env.HOME!, processCwd: ROOT, tmpdir: tmpdir() });
  return found.files.map((match) => ({ match, stat: stampOf(match.files)! }));
}

describe('describing sessions on worker threads', () => {
  test('each agent\'s session gets the entry this thread gives it, in order', async () => {
    const sessions = await placed();
    expect(new Set(sessions.map((s) => s.match.format)).size).toBe(7);
    const here = await describeAll(sessions, { minBytes: Infinity });
    expect(here.map((e) => e.id)).toEqual(sessions.map((s) => s.match.id));
    expect(here.every((e) => e.turns > 0 && e.unread === undefined)).toBe(true);
    const onWorkers = await describeAll(sessions, { minBytes: 0, workerUrl: marking(WORKER) });
    expect(marked(onWorkers)).toBe(sessions.length);
    expect(unmarked(onWorkers)).toEqual(here);
    // Below the bytes that pay for a worker, none starts.
    expect(marked(await describeAll(sessions, { workerUrl: marking(WORKER) }))).toBe(0);
  });

  test.each<WorkerDeath>(['throws', 'exits'])('a worker that %s on its third session loses nothing', async (how) => {
    const sessions = await placed();
    const here = await describeAll(sessions, { minBytes: Infinity });
    const entries = await describeAll(sessions, { minBytes: 0, workerUrl: marking(dyingWorker(WORKER, how, 3)) });
    expect(marked(entries)).toBeGreaterThan(0);
    expect(marked(entries)).toBeLessThan(sessions.length);
    expect(unmarked(entries)).toEqual(here);
  });
});
