// Test-only preload (`node --import test/support/stdin-gate.mjs <bin>`): holds the process's reads of stdin
// (fd 0) at a gate, so a test decides when a run on a regular file may go on. Once ASYNCAI_LOG_TEST_GATE_AFTER
// bytes of stdin were read, the next read first opens the FIFO ASYNCAI_LOG_TEST_GATE (a test opening its
// write end learns the run is there) and waits for one byte on it. Plain JS: node loads it as it is.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const gate = process.env.ASYNCAI_LOG_TEST_GATE;
const after = Number(process.env.ASYNCAI_LOG_TEST_GATE_AFTER ?? 0);

if (gate !== undefined && gate !== '') {
  const readSync = fs.readSync;
  let read = 0;
  let passed = false;
  fs.readSync = function gatedReadSync(fd, ...rest) {
    if (fd === 0 && !passed && read >= after) {
      passed = true;
      const door = fs.openSync(gate, 'r');
      try {
        readSync(door, Buffer.alloc(1), 0, 1, null);
      } finally {
        fs.closeSync(door);
      }
    }
    const n = readSync(fd, ...rest);
    if (fd === 0) read += n;
    return n;
  };
  // `import { readSync } from 'node:fs'` in the bin's modules sees the gated one too.
  syncBuiltinESMExports();
}
