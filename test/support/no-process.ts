// The unit run starts no process: every way a test could start one (child_process, a worker thread) is
// replaced by a stub that throws, so a unit-selected test that starts one fails (vitest.unit.config.ts).
// Node's ES module bindings of builtins follow their exports object once synced, so a named import sees it.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

/** What a unit test that starts a process fails with. */
export const NO_PROCESS = 'a unit test starts no process';

/** The functions that start a process or a thread, by module. */
const STARTERS: Record<string, string[]> = {
  'node:child_process': ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'],
  'node:worker_threads': ['Worker'],
};

/**
 * Replace every starter with one that throws {@link NO_PROCESS} naming it; returns what puts them back.
 * Stubs already in place are left as they are (the returned function then does nothing).
 */
export function forbidProcesses(): () => void {
  const saved: Array<[Record<string, unknown>, string, unknown]> = [];
  for (const [id, names] of Object.entries(STARTERS)) {
    const exports = require(id) as Record<string, unknown>;
    for (const name of names) {
      if ((exports[name] as { forbidden?: boolean }).forbidden) continue;
      saved.push([exports, name, exports[name]]);
      const stub = function forbidden(): never { throw new Error(`${NO_PROCESS} (${id.slice(5)}.${name})`); };
      exports[name] = Object.assign(stub, { forbidden: true });
    }
  }
  syncBuiltinESMExports();
  return () => {
    for (const [exports, name, original] of saved) exports[name] = original;
    syncBuiltinESMExports();
  };
}
