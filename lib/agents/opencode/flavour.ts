// OpenCode (1.18.33) as a flavour of the layout lib/opencode-store/ writes and reads: its program, directories,
// database, config and agent names (reference: opencode.md).
import type { Flavour } from '../../opencode-store/flavour.js';

export const OPENCODE: Flavour = {
  format: 'opencode',
  name: 'OpenCode',
  program: 'opencode',
  programVariable: 'ASYNCAI_LOG_OPENCODE',
  install: 'npm install -g opencode-ai',
  version: '1.18.33',
  dirName: 'opencode',
  databaseFile: 'opencode.db',
  databaseVariable: 'OPENCODE_DB',
  // OPENCODE_DB may name a file of any name.
  claimsOtherNames: true,
  configFiles: ['opencode.json'],
  projectCache: 'opencode',
  agent: 'build',
  exportInput: 'opencode-export',
};
