// Every usage error, in every command, has one shape: `asyncai-log: <what>`, then `Try 'asyncai-log <command>
// --help'.` (the filter's: `Try 'asyncai-log --help'.`), exit 2, nothing else on stderr, nothing on stdout and
// no file written. Each command's error paths are run: an unknown flag, a missing argument, a bad flag value,
// too many arguments and conflicting flags, where the command has them.
import { describe, expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import { cleanEnv, runBin, tempDir } from '../support/run.js';

// [command ('' for the filter), arguments after it, what is said]
const CASES: [string, string[], string][] = [
  ['', ['--frobnicate'], 'unknown option --frobnicate'],
  ['', ['--cwd'], '--cwd wants a value'],
  ['', ['--threads', '2'], 'unknown option --threads'],
  ['', ['--session-format', 'nope'], 'unknown session format "nope" (known: claude-code-cli, codex-cli, gemini-cli, opencode, qwen-code, pi, droid, copilot-cli, kilo)'],
  ['', ['--session-dir', 'oops'], '--session-dir wants <format>=<path>, got "oops"'],
  ['', ['--monitor-description', 'x'], '--monitor-description given 1 times for 0 --monitor'],
  ['', ['conver', 'logs'], 'unexpected argument "conver" (did you mean convert?)'],
  ['read', [], 'missing argument: read wants a transcript file, a session id or - (stdin)'],
  ['read', ['--tre', 'x.jsonl'], 'unknown option --tre (did you mean --tree?)'],
  ['read', ['x.jsonl', '--threads', '-1'], '--threads wants a whole number from 0 to 256, got "-1"'],
  ['read', ['x.jsonl', '--max-record-bytes', ''], '--max-record-bytes wants a whole number from 1 to 1073741824, got ""'],
  ['read', ['--usage', '--tree', 'x.jsonl'], '--usage and --tree cannot be combined'],
  ['read', ['--by', 'day', 'x.jsonl'], '--by needs --usage'],
  ['read', ['--usage', '--by', 'week'], '--by week: expected one of session, day, month, model'],
  ['read', ['--usage', '--by'], '--by wants a value'],
  ['read', ['--usage', '--by', 'day', '-'], '--usage --by reads files, directories and session ids, not - (stdin)'],
  ['read', ['--inspect', '--usage', 'x.jsonl'], '--inspect and --usage cannot be combined'],
  ['read', ['--inspect', 'x.jsonl', '--tree'], '--inspect and --tree cannot be combined'],
  ['read', ['--inspect', '--branch', 'a1', 'x.jsonl'], '--inspect and --branch cannot be combined'],
  ['read', ['--inspect', '--events', 'x.jsonl'], '--inspect and --events cannot be combined'],
  ['read', ['--inspect', '--subagents', 'x.jsonl'], '--inspect and --subagents cannot be combined'],
  ['read', ['--inspect', '--fidelity-json', 'f.json', 'x.jsonl'], '--inspect and --fidelity-json cannot be combined'],
  ['read', ['x.jsonl', '--session-dir', 'oops'], '--session-dir wants <format>=<path>, got "oops"'],
  ['convert', [], 'missing argument: convert wants a file, directory or session id to convert'],
  ['convert', ['--echo', 'logs'], 'unknown option --echo'],
  ['convert', ['logs', '--jobs', '0'], '--jobs wants a whole number from 1 to 256, got "0"'],
  ['convert', ['logs', '--from', 'nope'], 'unknown input format "nope" (known: auto, claude-stream-json, claude-transcript, codex-rollout, codex-exec-json, gemini-chat, gemini-stream-json, opencode-export, opencode-run-json, qwen-chat, pi-session, droid-session, droid-stream-json, copilot-events, kilo-export, events)'],
  ['convert', ['logs', '--max-line-bytes'], '--max-line-bytes wants a value'],
  ['sessions', ['--agent', 'nope'], '--agent: unknown agent "nope" (one of claude-code-cli, codex-cli, gemini-cli, opencode, qwen-code, pi, droid, copilot-cli, kilo)'],
  ['sessions', ['--since', 'yesterday'], '--since: not a time or an age: "yesterday" (e.g. 2026-12-01, 2026-12-01T10:00Z, 12h, 7d)'],
  ['sessions', ['--grep'], '--grep wants a value'],
  ['sessions', ['--json', '--table'], '--json and --table cannot be combined'],
  ['sessions', ['--here', '--cwd', '/tmp'], '--here and --cwd cannot be combined'],
  ['sessions', ['1234'], 'a session id or a prefix of 8 or more characters: "1234"'],
  ['sessions', ['--session-dir', 'nope=/tmp'], '--session-dir: unknown format "nope" (one of claude-code-cli, codex-cli, gemini-cli, opencode, qwen-code, pi, droid, copilot-cli, kilo)'],
  ['sessions', ['a1b2c3d4', 'extra'], 'unexpected argument "extra"'],
  ['completion', ['bash', 'extra'], 'unexpected argument "bash"'],
  ['completion', ['--zsh'], 'unknown option --zsh'],
];

describe('usage errors: one shape in every command', () => {
  for (const [command, args, what] of CASES) {
    const argv = command === '' ? args : [command, ...args];
    test(`asyncai-log ${argv.join(' ')}: "asyncai-log: ${what}", the help to try, exit 2, nothing else`, async () => {
      const home = tempDir();
      const cwd = tempDir();
      const r = await runBin(argv, {
        cwd, input: '{"type":"user","text":"hi"}\n',
        env: cleanEnv({ CLAUDE_CONFIG_DIR: home, CODEX_HOME: home, HOME: home }),
      });
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toBe(`asyncai-log: ${what}\nTry 'asyncai-log${command === '' ? '' : ` ${command}`} --help'.\n`);
      expect(readdirSync(home)).toEqual([]);
      expect(readdirSync(cwd)).toEqual([]);
    });
  }

  test('completion --help prints the completion command\'s help, not the script', async () => {
    const r = await runBin(['completion', '--help'], { env: cleanEnv({ SHELL: '/bin/bash' }) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^asyncai-log completion\n/);
    expect(r.stdout).not.toContain('complete -o');
  });
});
