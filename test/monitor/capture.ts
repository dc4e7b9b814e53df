// Captures Monitor records from the real Claude Code: the loopback mock makes `claude -p` call its own
// Monitor tool on three commands (one printing lines, one failing silently, one ending silently), then wait
// in a Bash call until they are done, so every notification is absorbed mid-turn. The monitor records are
// kept, sanitised (no path of this machine) and trimmed. Used by golden.test.ts and
// scripts/capture-monitor-fixtures.mjs (which rewrites fixtures/monitor/ on purpose).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockAnthropic } from '../support/mock-anthropic.js';
import { claudeBinary } from '../support/run.js';

/** The session id of the capture (fixed, so the fixture is stable). */
export const CAPTURE_SESSION = '4d6f6e69-746f-4f72-8a5f-000000000001';

/** The monitors the mock asks for: descriptions, commands, and the lines they print. */
export const CAPTURED = {
  lines: {
    description: 'build & <watch> "q"',
    // Two lines, far enough apart (0.6 s) that the CLI does not batch them (it joins lines within 200 ms).
    events: ['ok & <done> "quoted"\ttab', 'second line'],
    command: 'printf \'%s\\n\' \'ok & <done> "quoted"\ttab\'; sleep 0.6; echo \'second line\'; sleep 0.6; touch lines.done',
  },
  failing: { description: 'fails', command: 'sleep 0.2; touch failing.done; exit 3' },
  quiet: { description: 'quiet', command: 'touch quiet.done' },
} as const;

/** Neutral stand-ins for this machine's paths in the fixture. */
export const NEUTRAL_CWD = '/home/user/project';
const NEUTRAL_TMP = '/home/user/.cache/claude-tmp';

export interface MonitorCapture {
  /** The monitor records, one JSON line each, sanitised. */
  records: Record<string, any>[];
}

function runClaude(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBinary(), args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Is this record part of what a monitor wrote (its tool call, its result, its notifications)? */
function isMonitorRecord(record: any): boolean {
  if (record.type === 'queue-operation') return typeof record.content === 'string' && record.content.startsWith('<task-notification>');
  if (record.type === 'attachment') return record.attachment?.type === 'queued_command';
  const content = record.message?.content;
  if (!Array.isArray(content)) return false;
  return content.some((b: any) => (b.type === 'tool_use' && b.name === 'Monitor')
    || (b.type === 'tool_result' && typeof b.content === 'string' && b.content.startsWith('Monitor started')));
}

/** Replace this machine's paths; throw if one survives. */
export function sanitize(text: string, cwd: string, tmp: string): string {
  const encode = (p: string) => p.replace(/[^a-zA-Z0-9]/g, '-');
  const out = text
    .split(cwd).join(NEUTRAL_CWD)
    .split(encode(cwd)).join(encode(NEUTRAL_CWD))
    .split(tmp).join(NEUTRAL_TMP);
  const leak = /\/(?:tmp|work|root)\/[^"\s]*/.exec(out);
  if (leak) throw new Error(`a machine path survived sanitising: ${leak[0]}`);
  return out;
}

/** Run the scenario with the real `claude` in fresh temp directories and return its monitor records. */
export async function captureMonitorRecords(): Promise<MonitorCapture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'asyncai-monitor-capture-')));
  const configDir = join(base, 'config');
  const cwd = join(base, 'project');
  const tmp = join(base, 'tmp');
  for (const dir of [configDir, cwd, tmp]) mkdirSync(dir);
  const mock = await startMockAnthropic([{ type: 'text', text: 'done' }]);
  const monitor = (id: string, spec: { description: string; command: string }) => ({
    type: 'tool_use' as const, id, name: 'Monitor',
    input: { command: spec.command, description: spec.description, timeout_ms: 60000, persistent: false },
  });
  mock.script(
    [
      monitor('toolu_monitor_lines', CAPTURED.lines),
      monitor('toolu_monitor_failing', CAPTURED.failing),
      monitor('toolu_monitor_quiet', CAPTURED.quiet),
    ],
    // Wait (inside the turn) until every monitor is done, then a little longer for the CLI to deliver.
    [{ type: 'tool_use', id: 'toolu_wait', name: 'Bash', input: {
      command: 'while [ ! -f lines.done ] || [ ! -f failing.done ] || [ ! -f quiet.done ]; do sleep 0.1; done; sleep 1.5',
      description: 'Wait for the monitors' } }],
    [{ type: 'text', text: 'All three monitors reported.' }],
  );
  try {
    const result = await runClaude(
      ['-p', '--allowedTools', 'Bash,Monitor', '--session-id', CAPTURE_SESSION, '--', 'Watch the build.'],
      cwd,
      {
        PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: base, LANG: 'C.UTF-8', TMPDIR: tmp,
        CLAUDE_CONFIG_DIR: configDir, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-test',
        DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
      },
    );
    if (result.code !== 0) throw new Error(`claude exited ${result.code}: ${result.stderr.slice(0, 500)}`);
    const projects = join(configDir, 'projects');
    const dir = readdirSync(projects)[0] ?? 'missing';
    const text = readFileSync(join(projects, dir, `${CAPTURE_SESSION}.jsonl`), 'utf8');
    const records = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l)).filter(isMonitorRecord);
    return { records: records.map((r) => JSON.parse(sanitize(JSON.stringify(r), cwd, tmp))) };
  } finally {
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  }
}
