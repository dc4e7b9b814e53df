// Before any test runs: installs the pinned real agent CLIs into the git-ignored cache if they are not there
// yet (test/clients/), and builds the bin and its man page (scripts/build.mjs), so end-to-end tests spawn
// what an install ships. CI runs the suite on several Node versions (.ci/run) and says which in
// ASYNCAI_LOG_TEST_NODE: checked here, so a run that meant Node 24 cannot pass on another one (tests and the
// bins they spawn run on process.execPath). Every temporary directory of the run (the tests', and the real
// CLIs': opencode unpacks a 5 MB library into it on each start) is made in one directory, removed at the end:
// a day of runs left about 70 GB behind before. HOME is a new empty directory for the run, checked empty at
// the end (test/support/sandbox-home.ts): the install above runs with the user's own, before it is switched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTestClients } from '../clients/clients.mjs';
import { build } from '../../scripts/build.mjs';
import { sandboxHome } from './sandbox-home.js';

/** Set in this process once the setup ran: each project of the run (vitest.config.ts) names it, it runs once. */
const RAN = 'ASYNCAI_LOG_TEST_GLOBAL_SETUP';

export default function setup(): () => void {
  if (process.env[RAN] !== undefined) return () => {};
  process.env[RAN] = '1';
  const wanted = process.env.ASYNCAI_LOG_TEST_NODE;
  if (wanted !== undefined && wanted !== process.version) throw new Error(`the tests run on Node ${process.version}, not ${wanted}`);
  installTestClients();
  build();
  // The test processes are started after this, with this environment: os.tmpdir() is the run's directory.
  const checkHome = sandboxHome();
  const runTmp = mkdtempSync(join(tmpdir(), 'asyncai-log-run-'));
  process.env.TMPDIR = runTmp;
  return () => {
    rmSync(runTmp, { recursive: true, force: true });
    checkHome();
  };
}
