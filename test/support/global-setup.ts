// Before any test runs: installs the pinned real agent CLIs into the git-ignored cache if they are not there
// yet (test/clients/), and builds the bin and its man page (scripts/build.mjs), so end-to-end tests spawn
// what an install ships.
import { installTestClients } from '../clients/clients.mjs';
import { build } from '../../scripts/build.mjs';

export default function setup(): void {
  installTestClients();
  build();
}
