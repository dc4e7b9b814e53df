// Incremental convert into Kilo: a source that only grew is appended to the session written before, through
// Kilo's own CLI (the new messages and parts by `kilo import`, which skips the rows it has; a call whose result
// came later updated in place by `kilo db`, as for OpenCode: lib/opencode-store/); the real kilo continues it with
// old and new turns. The test is OpenCode's too: test/support/incremental-store.ts.
import { continueWithKilo, kiloHome, runKilo } from '../support/kilo.js';
import { describeIncrementalStore } from '../support/incremental-store.js';
import { binEnv, conversation, projectDir } from '../agents/kilo/support.js';

describeIncrementalStore({
  format: 'kilo', name: 'Kilo', home: kiloHome, run: runKilo, binEnv, conversation,
  continueWith: (home, dir, session) => continueWithKilo(home, dir, session),
  projectDir: (home, name) => projectDir(home, name, false),
}, 900_000);
