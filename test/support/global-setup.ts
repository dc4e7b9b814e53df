// Before any test runs: installs the pinned real agent CLIs into the git-ignored cache if they are not there
// yet (test/clients/), and builds the bin and its man page (scripts/build.mjs), so end-to-end tests spawn
// what an install ships. CI runs the suite on several Node versions (.ci/run) and says which in
// ASYNCAI_LOG_TEST_NODE: checked here, so a run that meant Node 24 cannot pass on another one (tests and the
// bins they spawn run on process.execPath).
import { installTestClients } from '../clients/clients.mjs';
import { build } from '../../scripts/build.mjs';

export default function setup(): void {
  const wanted = process.env.ASYNCAI_LOG_TEST_NODE;
  if (wanted !== undefined && wanted !== process.version) throw new Error(`the tests run on Node ${process.version}, not ${wanted}`);
  installTestClients();
  build();
}
