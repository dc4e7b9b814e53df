// Regenerates the input-adapter fixtures in fixtures/claude-stream-json/ (the `input-*` files) on purpose:
// runs the real `claude -p --output-format stream-json --verbose` (pinned in test/clients/) against the loopback
// Messages mock, sanitizes and trims its stdout, and rewrites the golden event files from the built adapter.
//   npx tsc -p tsconfig.json && node scripts/capture-claude-stream-json-fixtures.mjs       capture + goldens
//   node scripts/capture-claude-stream-json-fixtures.mjs --goldens                         goldens only
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, importTs, sanitize, writeGolden } from './input-fixture-tools.mjs';

const DIR = join(ROOT, 'fixtures', 'claude-stream-json');

const SCENARIOS = [
  {
    name: 'input-tools',
    prompt: 'Print a and run a failing command, in parallel.',
    args: ['--allowedTools', 'Bash'],
    replies: [
      [
        { type: 'thinking', thinking: 'Two independent commands: run them together.', signature: 'c2lnbmF0dXJlLWlucHV0LXRvb2xz' },
        { type: 'text', text: 'Running both.' },
        { type: 'tool_use', id: 'toolu_input_a', name: 'Bash', input: { command: 'echo a', description: 'Print a' } },
        { type: 'tool_use', id: 'toolu_input_b', name: 'Bash', input: { command: 'echo b; exit 2', description: 'Fail on purpose' } },
      ],
      [{ type: 'text', text: 'a was printed; the second command exited with 2.' }],
    ],
  },
  {
    name: 'input-subagent',
    prompt: 'Ask a subagent to echo sub.',
    args: ['--allowedTools', 'Bash,Agent'],
    // A foreground subagent: its requests come between the main conversation's, in this order.
    replies: [
      [{ type: 'tool_use', id: 'toolu_input_agent', name: 'Agent', input: { description: 'Echo task', prompt: 'Run echo sub and report.', subagent_type: 'general-purpose', run_in_background: false } }],
      [{ type: 'tool_use', id: 'toolu_input_sub', name: 'Bash', input: { command: 'echo sub', description: 'Echo' } }],
      [{ type: 'text', text: 'The command printed sub.' }],
      [{ type: 'text', text: 'The subagent reports: sub.' }],
    ],
  },
  {
    name: 'input-api-error',
    prompt: 'Hello?',
    replies: [[{ type: 'error', status: 400, error_type: 'invalid_request_error', message: 'prompt is too long' }]],
  },
  {
    // Saved: the stdout of a second run that resumes the first (`claude -p --resume <id>`).
    name: 'input-resumed',
    prompt: 'Remember the word: kiwi.',
    replies: [[{ type: 'text', text: 'Noted: kiwi.' }]],
    resume: { prompt: 'Which word?', args: ['--allowedTools', 'Bash'], replies: [[{ type: 'tool_use', id: 'toolu_input_recall', name: 'Bash', input: { command: 'echo kiwi', description: 'Recall' } }], [{ type: 'text', text: 'The word was kiwi.' }]] },
  },
  {
    name: 'input-partial-messages',
    prompt: 'Say hello.',
    args: ['--include-partial-messages'],
    replies: [[{ type: 'text', text: 'Hello there.' }]],
  },
];

async function capture() {
  const { startMockAnthropic } = await importTs('test/support/mock-anthropic.ts');
  const { run, claudeBinary, cleanEnv } = await importTs('test/support/run.ts');
  mkdirSync(DIR, { recursive: true });
  for (const scenario of SCENARIOS) {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'asyncai-claude-capture-')));
    const config = join(base, 'config');
    const cwd = join(base, 'project');
    mkdirSync(cwd, { recursive: true });
    const mock = await startMockAnthropic();
    mock.script(...scenario.replies);
    try {
      const env = cleanEnv({
        CLAUDE_CONFIG_DIR: config, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'sk-ant-test',
        DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
      });
      const stream = (args, prompt) => run(claudeBinary(), ['-p', '--output-format', 'stream-json', '--verbose', ...(args ?? []), '--', prompt], { cwd, env });
      let result = await stream(scenario.args, scenario.prompt);
      if (scenario.resume) {
        const session = JSON.parse(result.stdout.split('\n')[0]).session_id;
        mock.script(...scenario.resume.replies);
        result = await stream(['--resume', session, ...(scenario.resume.args ?? [])], scenario.resume.prompt);
      }
      const uid = process.getuid?.() ?? 0;
      const replacements = [
        [cwd, '/home/user/project'], [config, '/home/user/.claude'], [base, '/home/user'],
        [cwd.replace(/[^a-zA-Z0-9]/g, '-'), '-home-user-project'],
        [`/tmp/claude-${uid}/`, '/home/user/.cache/claude/'], ['/tmp/cc-socks/', '/home/user/.cache/cc-socks/'],
      ];
      writeFileSync(join(DIR, `${scenario.name}.jsonl`), sanitize(result.stdout, replacements));
      console.log(`claude-stream-json/${scenario.name}.jsonl (claude exit ${result.code}, ${mock.requests.length} requests)`);
    } finally {
      await mock.close();
    }
  }
}

if (!process.argv.includes('--goldens')) await capture();
for (const name of readdirSync(DIR).filter((f) => f.startsWith('input-') && f.endsWith('.jsonl'))) {
  await writeGolden('claude-stream-json', join(DIR, name));
}
console.log('goldens written; review them with git diff before committing');
