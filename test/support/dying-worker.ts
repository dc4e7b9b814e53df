// Worker failure on demand: a worker module that is the real one (the build's) until its n-th task, and then
// fails as a worker can in use: it throws, runs out of memory under the limits its pool gave it, or exits.
// Used by the tests of the worker threads, which must lose nothing when one fails; and a worker whose replies a
// test rewrites.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './run.js';

export type WorkerDeath = 'throws' | 'runs out of memory' | 'exits';

const DEATHS: Record<WorkerDeath, string> = {
  throws: "throw new Error('injected failure');",
  // Up to the heap limit the pool set, which ends the worker (ERR_WORKER_OUT_OF_MEMORY), not the process.
  'runs out of memory': 'const hog = []; for (;;) hog.push(new Array(100_000).fill(seen));',
  exits: 'process.exit(3);',
};

/**
 * A module for `new Worker()` that runs `real` and fails as `how` says on the `at`-th message it gets (of
 * those whose `kind` is `kind`, when given). Every worker of the pool runs it.
 */
export function dyingWorker(real: URL, how: WorkerDeath, at: number, kind?: string): URL {
  const dir = tempDir('asyncai-log-worker-');
  const match = kind !== undefined ? `task.kind === ${JSON.stringify(kind)} && ` : '';
  // Its own module, imported before the real one: its listener comes first, and both are in place before the
  // first message is delivered (static imports run in order in one go).
  writeFileSync(join(dir, 'inject.mjs'), [
    "import { parentPort } from 'node:worker_threads';",
    'let seen = 0;',
    // Stopping propagation keeps the message from the real handler: the worker dies holding its task.
    `parentPort.addEventListener('message', (event) => {`,
    `  const task = event.data;`,
    `  if (${match}++seen === ${at}) { event.stopImmediatePropagation(); ${DEATHS[how]} }`,
    '});',
  ].join('\n'));
  writeFileSync(join(dir, 'worker.mjs'), `import './inject.mjs';\nimport ${JSON.stringify(real.href)};\n`);
  return pathToFileURL(join(dir, 'worker.mjs'));
}

/**
 * A module for `new Worker()` that runs `real` with each reply it sends passed through `rewrite` (the source of
 * a function of the reply): how a test tells the workers' answers from those its own thread made.
 */
export function rewritingWorker(real: URL, rewrite: string): URL {
  const path = join(tempDir('asyncai-log-worker-'), 'rewriting.mjs');
  writeFileSync(path, [
    "import { parentPort } from 'node:worker_threads';",
    'const post = parentPort.postMessage.bind(parentPort);',
    `const rewrite = ${rewrite};`,
    "parentPort.postMessage = (m, t) => post(m !== null && typeof m === 'object' && 'reply' in m ? { reply: rewrite(m.reply) } : m, t);",
    `await import(${JSON.stringify(real.href)});`,
  ].join('\n'));
  return pathToFileURL(path);
}
