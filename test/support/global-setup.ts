// Before any test runs: installs the pinned real agent CLIs into the git-ignored cache if they are not there
// yet (test/clients/), and builds the bin and its man page, so end-to-end tests spawn what an install ships.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installTestClients } from '../clients/clients.mjs';

export default function setup(): void {
  installTestClients();
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
}
