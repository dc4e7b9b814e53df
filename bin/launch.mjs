#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50 --expose-gc
// The installed `asyncai-log` command: runs the built CLI (dist/bin/asyncai-log.js, from bin/asyncai-log.ts).
// `npm install -g .` links a fresh clone as it is and runs none of its scripts (npm 11 warns about any
// install script of a linked package), so a checkout that was never built is built here on its first run,
// once (scripts/build.mjs). A packed or published package always ships dist/.
// The node flags: V8 young-generation semi-spaces of 4 MB (default 16) and `gc` for `read`; see bin/asyncai-log.ts.
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/bin/asyncai-log.js', import.meta.url);
const build = new URL('../scripts/build.mjs', import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const lock = `${root}.build-lock`;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Take the build lock: a file holding our pid, made whole before it appears (a hard link of a written file). */
function lockBuild() {
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    linkSync(mine, lock);
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Build the checkout, or wait while another run of the command builds it. */
async function buildOnce() {
  while (!existsSync(main)) {
    if (!lockBuild()) {
      let holder = 0;
      try {
        holder = Number(readFileSync(lock, 'utf8'));
      } catch (error) {
        if (error.code === 'ENOENT') continue; // its builder just finished
        throw error;
      }
      if (alive(holder)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      else rmSync(lock, { force: true }); // its builder died
      continue;
    }
    try {
      process.stderr.write(`asyncai-log: first run from the checkout ${root}: building it (once)\n`);
      const { build: run } = await import(build.href);
      run({ stdio: 'stderr' });
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

if (!existsSync(main)) {
  if (!existsSync(build)) {
    process.stderr.write(`asyncai-log: ${fileURLToPath(main)} is missing: reinstall the package\n`);
    process.exit(1);
  }
  try {
    await buildOnce();
  } catch (error) {
    process.stderr.write(`asyncai-log: cannot build the checkout ${root}: ${error.message}\n`);
    process.exit(1);
  }
}
await import(main.href);
