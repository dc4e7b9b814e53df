// Regenerates fixtures/monitor/claude-monitor-records.jsonl on purpose: runs the real `claude -p` (pinned in test/clients/)
// against the loopback Messages mock so it calls its own Monitor tool (test/monitor/capture.ts), and keeps
// its monitor records, sanitised and trimmed.
//   node scripts/capture-monitor-fixtures.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { module } = await runnerImport(join(ROOT, 'test/monitor/capture.ts'));
const { records } = await module.captureMonitorRecords();
const file = join(ROOT, 'fixtures', 'monitor', 'claude-monitor-records.jsonl');
writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
process.stdout.write(`${records.length} records -> ${file}\n`);
