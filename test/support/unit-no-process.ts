// The unit run's setup file (vitest.unit.config.ts), run in each test file's process before it: from here on
// nothing in that file can start a process or a thread (test/support/no-process.ts).
import { forbidProcesses } from './no-process.js';

forbidProcesses();
