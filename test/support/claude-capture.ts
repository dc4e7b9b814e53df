// Runs the real Claude Code against the loopback mock so it writes its own transcripts: the scenarios
// behind fixtures/claude-code-cli/ (Bash, parallel calls, a subagent, a Monitor, spilled output, an image,
// a compaction). Used by scripts/capture-claude-fixtures.mjs (regenerates fixtures on purpose) and by the
// real-client reader tests (capture fresh, read, compare with the golden files).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startMockAnthropic, type MockBlock } from './mock-anthropic.js';
import { claudeBinary } from './run.js';

/** One `claude -p` invocation of a scenario. */
export interface ScenarioRun {
  prompt: string;
  /** Replies of the main conversation, in order. */
  replies: MockBlock[][];
  /** Replies to requests whose first user message contains `marker` (a subagent's own conversation). */
  subagent?: { marker: string; replies: MockBlock[][] };
  allowedTools?: string[];
  /** Resume the session written by the previous run. */
  resume?: boolean;
  /** Lines for `--input-format stream-json` on stdin (the prompt is then not given as an argument). */
  stdinMessages?: unknown[];
}

export interface Scenario {
  name: string;
  /** Fixed, so fixture file names are stable. */
  sessionId: string;
  /** Files created in the project directory before the first run. */
  files?: Record<string, Buffer | string>;
  runs: ScenarioRun[];
}

/** A 1x1 PNG. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The scenarios captured into fixtures/claude-code-cli/. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'parallel-bash',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001',
    runs: [{
      prompt: 'Run echo alpha and a failing command in parallel.',
      replies: [
        [
          { type: 'thinking', thinking: 'Two independent commands: run them together.', signature: 'c2lnbmF0dXJlLWZpeHR1cmUtMQ==' },
          { type: 'text', text: 'Running both commands.' },
          { type: 'tool_use', id: 'toolu_fixture_a1', name: 'Bash', input: { command: 'echo alpha', description: 'Print alpha' } },
          { type: 'tool_use', id: 'toolu_fixture_b2', name: 'Bash', input: { command: 'echo beta >&2; exit 3', description: 'Fail on purpose' } },
        ],
        [{ type: 'text', text: 'alpha was printed; the second command failed with exit code 3.' }],
      ],
    }],
  },
  {
    name: 'subagent',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000002',
    runs: [{
      prompt: 'Ask a subagent to count the files here.',
      replies: [
        [{ type: 'tool_use', id: 'toolu_fixture_agent', name: 'Agent',
          input: { description: 'Count files', prompt: 'SUBTASK: count the files with ls | wc -l and report the number.',
            subagent_type: 'general-purpose', run_in_background: false } }],
        [{ type: 'text', text: 'The subagent reports 1 file.' }],
      ],
      subagent: {
        marker: 'SUBTASK:',
        replies: [
          [{ type: 'tool_use', id: 'toolu_fixture_sub_ls', name: 'Bash', input: { command: 'ls | wc -l', description: 'Count files' } }],
          [{ type: 'text', text: 'There is 1 file.' }],
        ],
      },
    }],
    files: { 'notes.txt': 'hello\n' },
  },
  {
    name: 'monitor',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000003',
    runs: [{
      prompt: 'Watch a command that ticks twice.',
      allowedTools: ['Bash', 'Monitor'],
      replies: [
        [{ type: 'tool_use', id: 'toolu_fixture_mon', name: 'Monitor',
          input: { command: 'for i in 1 2; do echo tick $i; sleep 1; done', description: 'ticks', timeout_ms: 20000, persistent: false } }],
        [{ type: 'text', text: 'Watching the ticks.' }],
        // Each notification that arrives after the turn ended is a turn of its own.
        [{ type: 'text', text: 'tick 1 arrived.' }],
        [{ type: 'text', text: 'tick 2 arrived.' }],
        [{ type: 'text', text: 'The monitor ended.' }],
      ],
    }],
  },
  {
    name: 'spill',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000004',
    runs: [{
      prompt: 'Print the numbers 1 to 7000.',
      replies: [
        // About 34 KB: over Claude Code's 30,000-character limit for inline Bash output, so it is spilled.
        [{ type: 'tool_use', id: 'toolu_fixture_seq', name: 'Bash', input: { command: 'seq 1 7000', description: 'Print numbers' } }],
        [{ type: 'text', text: 'Printed 7000 numbers.' }],
      ],
    }],
  },
  {
    name: 'image',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000005',
    files: { 'pixel.png': PIXEL_PNG },
    runs: [{
      prompt: '',
      stdinMessages: [{
        type: 'user',
        message: { role: 'user', content: [
          { type: 'text', text: 'Here is a picture; then read pixel.png.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG.toString('base64') } },
        ] },
      }],
      replies: [
        [{ type: 'tool_use', id: 'toolu_fixture_read', name: 'Read', input: { file_path: '{cwd}/pixel.png' } }],
        [{ type: 'text', text: 'Both images are one pixel.' }],
      ],
    }],
  },
  {
    name: 'compaction',
    sessionId: '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000006',
    runs: [
      { prompt: 'Remember the word kiwi.', replies: [[{ type: 'text', text: 'I will remember kiwi.' }]] },
      { prompt: '/compact', resume: true,
        replies: [[{ type: 'text', text: '<summary>The user asked to remember the word kiwi.</summary>' }]] },
      { prompt: 'What was the word?', resume: true, replies: [[{ type: 'text', text: 'The word was kiwi.' }]] },
    ],
  },
];

/** What a captured scenario left behind. */
export interface Capture {
  scenario: Scenario;
  configDir: string;
  cwd: string;
  /** The project directory under `<configDir>/projects/`. */
  projectDir: string;
  transcript: string;
  /** stdout of each run (`--output-format stream-json`). */
  streams: string[];
  stderr: string[];
  requests: unknown[];
}

function substitute(value: unknown, cwd: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{cwd}', cwd);
  if (Array.isArray(value)) return value.map((v) => substitute(v, cwd));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, cwd)]));
  }
  return value;
}

function firstUserText(body: any): string {
  const first = Array.isArray(body?.messages) ? body.messages.find((m: any) => m.role === 'user') : undefined;
  if (!first) return '';
  return typeof first.content === 'string' ? first.content : JSON.stringify(first.content);
}

function runClaude(args: string[], cwd: string, env: Record<string, string>, input: string | undefined)
  : Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBinary(), args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Run one scenario with the real `claude` in fresh temp directories. */
export async function captureScenario(scenario: Scenario): Promise<Capture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'asyncai-capture-')));
  const configDir = join(base, 'config');
  const cwd = join(base, 'project');
  mkdirSync(configDir);
  mkdirSync(cwd);
  for (const [name, data] of Object.entries(scenario.files ?? {})) writeFileSync(join(cwd, name), data);
  const mock = await startMockAnthropic([{ type: 'text', text: 'done' }]);
  const streams: string[] = [];
  const stderr: string[] = [];
  try {
    for (const run of scenario.runs) {
      const main = run.replies.map((r) => substitute(r, cwd) as MockBlock[]);
      const sub = (run.subagent?.replies ?? []).map((r) => substitute(r, cwd) as MockBlock[]);
      mock.script(...main);
      const marker = run.subagent?.marker;
      mock.route((body) => (marker !== undefined && firstUserText(body).includes(marker) ? sub.shift() : undefined));
      const args = ['-p', '--allowedTools', ...(run.allowedTools ?? ['Bash']), '--output-format', 'stream-json', '--verbose'];
      args.push(...(run.resume ? ['--resume', scenario.sessionId] : ['--session-id', scenario.sessionId]));
      let input: string | undefined;
      if (run.stdinMessages) {
        args.push('--input-format', 'stream-json');
        input = run.stdinMessages.map((m) => `${JSON.stringify(m)}\n`).join('');
      } else {
        args.push('--', run.prompt);
      }
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: base, LANG: 'C.UTF-8',
        CLAUDE_CONFIG_DIR: configDir, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-test',
        DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
      };
      const result = await runClaude(args, cwd, env, input);
      streams.push(result.stdout);
      stderr.push(result.stderr);
      if (result.code !== 0) throw new Error(`claude exited ${result.code} in scenario ${scenario.name}: ${result.stderr.slice(0, 500)}`);
    }
  } finally {
    await mock.close();
  }
  const projects = join(configDir, 'projects');
  const dirs = existsSync(projects) ? readdirSync(projects) : [];
  const projectDir = join(projects, dirs[0] ?? 'missing');
  return {
    scenario, configDir, cwd, projectDir,
    transcript: join(projectDir, `${scenario.sessionId}.jsonl`),
    streams, stderr, requests: mock.requests.map((r) => r.body),
  };
}

/** Every file of a capture's session, relative to its project directory (transcript, subagents, spills). */
export function sessionFiles(capture: Capture): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = join(capture.projectDir, rel);
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  if (existsSync(capture.projectDir)) walk('');
  return out.sort();
}

/** Read a capture's file as text. */
export function captureText(capture: Capture, rel: string): string {
  return readFileSync(join(capture.projectDir, rel), 'utf8');
}

/** This machine's paths in a capture, each with the neutral path that replaces it in fixtures. */
export function neutralPaths(capture: Capture): [string, string][] {
  const base = dirname(capture.configDir);
  const encode = (path: string) => path.replace(/[^a-zA-Z0-9]/g, '-');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return [
    [capture.configDir, '/home/user/.claude'],
    [capture.cwd, '/home/user/project'],
    [encode(capture.cwd), '-home-user-project'],
    // The CLI runs without TMPDIR (see captureScenario): its temporary files are under /tmp, whatever ours are.
    [join('/tmp', `claude-${uid}`), '/home/user/.cache/claude-tmp'],
    [base, '/home/user'],
    [release(), '6.0.0-generic'],
  ];
}

const MACHINE_PATH = /(?:^|[^a-zA-Z0-9_.-])\/(?:tmp|work|root|var\/tmp)\//;

/** Replace this machine's paths (longest first); throws when one survives, so no fixture ever carries one. */
export function sanitizeText(text: string, replacements: [string, string][]): string {
  let out = text;
  for (const [from, to] of [...replacements].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
  out = out.replace(/\/tmp\/cc-socks\/\d+\.sock/g, '/home/user/.cache/cc-socks/1000.sock');
  const leak = MACHINE_PATH.exec(out);
  if (leak) throw new Error(`a machine path survived sanitising: ...${out.slice(Math.max(0, leak.index - 60), leak.index + 80)}...`);
  return out;
}

/** Longest string kept whole in records that are not turns (system prompts, tool and skill listings). */
const MAX_CONTEXT_STRING = 240;

function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_CONTEXT_STRING ? `${value.slice(0, 160)}…[trimmed]` : value;
  if (Array.isArray(value)) {
    const short = value.length > 4 ? [...value.slice(0, 2), `…[${value.length - 2} more trimmed]`] : value;
    return short.map(shorten);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

/**
 * Keep a record small without changing the conversation: turns (user, assistant) stay whole except
 * Claude Code's UI copy of a tool's output (`toolUseResult`); every other record has its long strings cut.
 */
export function trimRecord(record: Record<string, unknown>): Record<string, unknown> {
  if (record.type === 'user' || record.type === 'assistant') {
    return 'toolUseResult' in record ? { ...record, toolUseResult: shorten(record.toolUseResult) } : record;
  }
  return shorten(record) as Record<string, unknown>;
}

function sanitizeJsonl(text: string, replacements: [string, string][], trim: (r: Record<string, unknown>) => unknown): string {
  return sanitizeText(text, replacements).split('\n').filter((line) => line.trim() !== '')
    .map((line) => `${JSON.stringify(trim(JSON.parse(line) as Record<string, unknown>))}\n`).join('');
}

/** The session's files (transcript, subagents and their meta, spills), sanitised and trimmed, by relative path. */
export function sanitizedSessionFiles(capture: Capture): { path: string; text: string }[] {
  const replacements = neutralPaths(capture);
  return sessionFiles(capture).map((rel) => {
    const text = captureText(capture, rel);
    if (rel.endsWith('.jsonl')) return { path: rel, text: sanitizeJsonl(text, replacements, trimRecord) };
    return { path: rel, text: sanitizeText(text, replacements) };
  });
}

/** The stream-json stdout of each run, sanitised, long strings cut. */
export function sanitizedStreams(capture: Capture): string[] {
  const replacements = neutralPaths(capture);
  return capture.streams.map((text) => sanitizeJsonl(text, replacements, (r) => shorten(r)));
}
