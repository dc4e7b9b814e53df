// Kilo (`@kilocode/cli` 7.7.7), an OpenCode fork, as a flavour of the layout lib/opencode-store/ writes and reads:
// its own program, XDG folder (`kilo`), database (`kilo.db`, KILO_DB), config files and agent (`code`)
// (reference: kilo.md).
import type { Flavour } from '../../opencode-store/flavour.js';

export const KILO: Flavour = {
  format: 'kilo',
  name: 'Kilo',
  program: 'kilo',
  programVariable: 'ASYNCAI_LOG_KILO',
  install: 'npm install -g @kilocode/cli',
  version: '7.7.7',
  dirName: 'kilo',
  databaseFile: 'kilo.db',
  databaseVariable: 'KILO_DB',
  // A SQLite file of another name is OpenCode's (OPENCODE_DB may name any file): name Kilo's `kilo.db`.
  claimsOtherNames: false,
  // Kilo merges these, in this order, from $XDG_CONFIG_HOME/kilo (it writes kilo.jsonc itself on first start).
  configFiles: ['config.json', 'kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectCache: 'kilo',
  agent: 'code',
  exportInput: 'kilo-export',
};
