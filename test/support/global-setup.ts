// Before any test runs: installs the pinned real agent CLIs into the git-ignored cache if they are not there
// yet (test/clients/), and builds the bin and its man page (scripts/build.mjs; skipped when neither the
// sources nor dist/ changed since the last build here), so end-to-end tests spawn what an install ships. CI
// runs the suite on several Node versions (.ci/run) and says which in ASYNCAI_LOG_TEST_NODE: checked here, so
// a run that meant Node 24 cannot pass on another one (tests and the bins they spawn run on process.execPath).
// Every temporary directory of the run (the tests', and the real CLIs': opencode unpacks a 5 MB library into
// it on each start) is made in one directory, removed at the end: a day of runs left about 70 GB behind
// before. HOME is a new empty directory for the run, checked empty at the end (test/support/sandbox-home.ts):
// the install above runs with the user's own, before it is switched.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { installTestClients } from '../clients/clients.mjs';
import { build } from '../../scripts/build.mjs';
import { ROOT } from './run.js';
import { sandboxHome } from './sandbox-home.js';

/** What the build reads: the sources, the build scripts, the compiler's options and the locked tools. */
const BUILD_INPUTS = ['bin', 'lib', 'scripts/build.mjs', 'scripts/bundle.mjs', 'scripts/man-page.mjs', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** The last build's inputs and dist/ as it left them (not itself part of what is packed: dist/bin, dist/lib, dist/man). */
const STAMP = join(ROOT, 'dist', '.test-build');

/** SHA-256 of the files under `paths` (relative to the clone), each by its path and content; the stamp left out. */
function digest(paths: string[]): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (path === STAMP || !existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    hash.update(`${relative(ROOT, path)}\0`).update(readFileSync(path)).update('\0');
  };
  for (const path of paths) add(join(ROOT, path));
  return hash.digest('hex');
}

/**
 * Build (scripts/build.mjs: 10-20 s, the whole run waiting) unless dist/ is what the last build here made from
 * the same inputs: neither the sources nor dist/ changed since.
 */
function buildUnlessCurrent(): void {
  const state = () => `${digest(BUILD_INPUTS)} ${digest(['dist'])}\n`;
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === state()) return;
  rmSync(STAMP, { force: true });
  build();
  writeFileSync(STAMP, state());
}

/** Set in this process once the setup ran: each project of the run (vitest.config.ts) names it, it runs once. */
const RAN = 'ASYNCAI_LOG_TEST_GLOBAL_SETUP';

export default function setup(): () => void {
  if (process.env[RAN] !== undefined) return () => {};
  process.env[RAN] = '1';
  const wanted = process.env.ASYNCAI_LOG_TEST_NODE;
  if (wanted !== undefined && wanted !== process.version) throw new Error(`the tests run on Node ${process.version}, not ${wanted}`);
  installTestClients();
  buildUnlessCurrent();
  // The test processes are started after this, with this environment: os.tmpdir() is the run's directory.
  const checkHome = sandboxHome();
  const runTmp = mkdtempSync(join(tmpdir(), 'asyncai-log-run-'));
  process.env.TMPDIR = runTmp;
  return () => {
    rmSync(runTmp, { recursive: true, force: true });
    checkHome();
    // A later run in this process (vitest's watch mode) sets up again.
    delete process.env[RAN];
  };
}
