// Builds the bin once before any test runs, so end-to-end tests spawn what `npm install` would build. CI runs
// the suite on several Node versions (.ci/run) and says which in ASYNCAI_LOG_TEST_NODE: checked here, so a
// run that meant Node 24 cannot pass on another one (tests and the bins they spawn run on process.execPath).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const wanted = process.env.ASYNCAI_LOG_TEST_NODE;
  if (wanted !== undefined && wanted !== process.version) throw new Error(`the tests run on Node ${process.version}, not ${wanted}`);
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
}
