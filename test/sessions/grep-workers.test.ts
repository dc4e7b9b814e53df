// `sessions --grep` over many bytes passes the session files through its prefilter on worker threads
// (lib/sessions/grep-worker.ts), in batches: the files that pass are those this thread finds, in the same order,
// and a worker that fails loses nothing (this thread passes what it held). The workers run the build (global
// setup makes it).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { passingFiles } from '../../lib/sessions/passing.js';
import { needleForms } from '../../lib/sessions/prefilter.js';
import { dyingWorker, rewritingWorker, type WorkerDeath } from '../support/dying-worker.js';
import { tempDir } from '../support/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER = new URL('dist/lib/sessions/grep-worker.js', `file://${ROOT}/`);
const FORMS = needleForms('Flaky "test"');

/**
 * 1,500 files (batches of files), a few of them large (batches of bytes); every seventh holds the text, in one
 * case or another.
 */
function files(): { path: string; bytes: number }[] {
  const dir = tempDir('asyncai-log-grep-');
  return Array.from({ length: 1500 }, (_, i) => {
    const path = join(dir, `${i}.jsonl`);
    const filler = i % 97 === 0 ? 'x'.repeat(6 * 1024 * 1024) : `line ${i} flaky test`;
    const text = i % 7 === 0 ? `{"text":"${filler} a ${i % 2 ? 'FLAKY \\"Test\\"' : 'flaky \\"test\\"'} b"}\n` : `{"text":"${filler}"}\n`;
    writeFileSync(path, text);
    return { path, bytes: Buffer.byteLength(text) };
  });
}

/** A worker that answers every batch with no file passing: the replies are the workers'. */
const answeringNone = (real: URL): URL => rewritingWorker(real, '() => []');

async function passing(list: { path: string; bytes: number }[], workerUrl: URL | undefined, minBytes = 0): Promise<number[]> {
  const out: number[] = [];
  for await (const i of passingFiles(list, FORMS, workerUrl === undefined ? { minBytes: Infinity } : { minBytes, workerUrl })) out.push(i);
  return out;
}

describe('sessions --grep on worker threads', () => {
  test('the files that pass are those this thread finds, in order; the workers\' answers are the ones taken', async () => {
    const list = files();
    const here = await passing(list, undefined);
    expect(here).toEqual(list.map((_, i) => i).filter((i) => i % 7 === 0));
    expect(await passing(list, WORKER)).toEqual(here);
    expect(await passing(list, answeringNone(WORKER))).toEqual([]);
    // Below the bytes that pay for the workers, this thread passes them.
    expect(await passing(list, answeringNone(WORKER), Infinity)).toEqual(here);
  });

  test('a FIFO put where a session file was is passed over, not waited on, here and on the workers', async () => {
    const list = files();
    const fifo = list[7]!.path;
    execFileSync('rm', [fifo]);
    execFileSync('mkfifo', [fifo]);
    const here = await passing(list, undefined);
    expect(here).toEqual(list.map((_, i) => i).filter((i) => i % 7 === 0 && i !== 7));
    expect(await passing(list, WORKER)).toEqual(here);
  });

  test.each<WorkerDeath>(['throws', 'exits'])('a worker that %s on its third batch loses nothing', async (how) => {
    const list = files();
    const here = await passing(list, undefined);
    expect(await passing(list, dyingWorker(WORKER, how, 3))).toEqual(here);
    // The batches the workers answered (with none passing here) and those this thread passed after the loss.
    const some = await passing(list, dyingWorker(answeringNone(WORKER), how, 3));
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(here.length);
    expect(some.every((i) => here.includes(i))).toBe(true);
  });
});
