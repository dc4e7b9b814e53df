// Incremental convert into OpenCode: a source that only grew is appended to the session written before, through
// OpenCode's own CLI (the new messages and parts by `opencode import`, which skips the rows it has; a call whose
// result came later updated in place by `opencode db`); the real opencode continues it with old and new turns.
// The test is Kilo's too: test/support/incremental-store.ts.
import { continueWithOpencode, opencodeHome, runOpencode } from '../support/opencode.js';
import { describeIncrementalStore } from '../support/incremental-store.js';
import { binEnv, conversation, projectDir } from '../agents/opencode/support.js';

describeIncrementalStore({
  format: 'opencode', name: 'OpenCode', home: opencodeHome, run: runOpencode, binEnv, conversation,
  continueWith: (home, dir, session) => continueWithOpencode(home, dir, session),
  projectDir: (home, name) => projectDir(home, name, false),
}, 240_000);
