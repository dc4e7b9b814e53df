// What --help says beyond each option's own text: the width it wraps to, the format names the options
// accept, each command's examples and the notes the main help ends with. The man page is rendered from the
// --help output (scripts/man-page.mjs), so the two say the same.
import type { Argv } from 'yargs';
import { HARNESSES, inputFormatNames, knownFormats } from '../lib/filter/index.js';

/** The commands besides the default one (the filter), as typed. */
export const COMMANDS = ['read', 'convert', 'sessions', 'completion'];

/** The terminal's width when stdout is one, else 80 columns. */
export function helpWidth(stdout: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return stdout.isTTY === true && stdout.columns !== undefined && stdout.columns > 0 ? stdout.columns : 80;
}

/**
 * Leave out yargs' right-aligned column of types and defaults (each option's text says them): it glues onto
 * a description whose last line ends where the column starts. yargs 18 has the setting; its types (17) do not.
 */
export function withoutTypeColumn<T>(y: Argv<T>): Argv<T> {
  return (y as Argv<T> & { usageConfiguration(config: { 'hide-types': boolean }): Argv<T> }).usageConfiguration({ 'hide-types': true });
}

/** The transcript formats `--session-format` accepts, as help text. */
export function sessionFormatChoices(): string {
  return knownFormats().join(', ');
}

/** The input formats `--from` accepts, as help text. */
export function inputFormatChoices(): string {
  return ['auto', ...inputFormatNames()].join(', ');
}

type Examples = [string, string][];

/** Each example: a comment line saying what it does, then the command line(s). */
function examples(...groups: [string, ...string[]][]): Examples {
  return groups.flatMap(([what, ...commands]) => [[`# ${what}`, ''], ...commands.map((command): [string, string] => [command, ''])]);
}

export const FILTER_EXAMPLES = examples(
  ['Pipe an agent in; then resume the session in Claude Code',
    'some-agent --json | $0', 'claude --resume <session_id>'],
  ['A Codex run (codex exec does not print its prompt: --prompt gives it)',
    'codex exec --json "fix the bug" | $0 --prompt "fix the bug"'],
  ['A Claude Code run in print mode',
    'claude -p --output-format stream-json --verbose "fix the bug" \\', '  | $0 --prompt "fix the bug"'],
  ['A Codex session as well, resumed in Codex',
    'some-agent --json | $0 --session-format claude-code-cli \\', '  --session-format codex-cli', 'codex resume <session_id of the codex-cli entry in the session line>'],
  ['A stored Codex session, from its file under ~/.codex/sessions/',
    '$0 --from codex-rollout < rollout-2026-11-29T10-00-00-<id>.jsonl'],
  ['Record the lines a command prints as monitor events',
    'some-agent --json | $0 --cwd . --monitor "tail -f build.log"'],
  ['Read a session back as events; convert a folder of logs into sessions',
    '$0 read <session_id>', '$0 convert ~/.codex/sessions'],
);

export const READ_EXAMPLES = examples(
  ['The conversation of a session, one event per line',
    '$0 read <session_id>', '$0 read ~/.claude/projects/-home-me-app/<session_id>.jsonl'],
  ['Its token totals; its branches', '$0 read --usage <session_id>', '$0 read --tree <session_id>'],
  ['Every agent\'s token usage on this machine, by day', '$0 read --usage --by day'],
  ['Its shape (records, events, tool calls, usage), none of its text', '$0 read --inspect <session_id>'],
  ['A new session from an old one, in another project', '$0 read <session_id> | $0 --cwd ~/elsewhere'],
);

export const CONVERT_EXAMPLES = examples(
  ['Every Codex session into a Claude Code session', '$0 convert ~/.codex/sessions'],
  ['Again later: only what is new or changed is converted', '$0 convert ~/.codex/sessions'],
  ['Keep converting as sessions are written (until Ctrl-C)', '$0 convert --watch ~/.codex/sessions'],
  ['What would be converted, without writing anything', '$0 convert ~/.codex/sessions --dry-run'],
  ['Generic event logs into sessions under ./out', '$0 convert logs/*.ndjson --session-dir claude-code-cli=./out'],
);

export const SESSIONS_EXAMPLES = examples(
  ['Every session on this machine, newest first', '$0 sessions'],
  ['This project\'s Codex sessions of the last week', '$0 sessions --here --agent codex-cli --since 7d'],
  ['Find a session by what was said in it, then move it to Claude Code',
    '$0 sessions --grep "flaky test"', '$0 convert <session_id> --session-format claude-code-cli'],
  ['One session by a prefix of its id, as JSON', '$0 sessions 1e43738a --json'],
);

export const MAIN_NOTES = [
  'Exit codes: 0 success (bad input lines are reported on stderr and skipped), 1 failure at run time, 2 usage error, '
    + '130, 143 and 129 after SIGINT, SIGTERM and SIGHUP (what was read is written).',
  `Sessions are written under ${HARNESSES.map((h) => `${h.rootHelp} for ${h.format}`).join('; ')}, unless --session-dir says otherwise.`,
  'More: asyncai-log read --help, asyncai-log convert --help, asyncai-log sessions --help, man asyncai-log, and the README.',
].join('\n\n');

export const READ_NOTES = 'Exit codes: 0 when every transcript was read (damaged lines are reported on stderr), 1 when one could not be '
  + '(the others are still read), 2 usage error, 130, 143, 129 after SIGINT, SIGTERM, SIGHUP.';

export const CONVERT_NOTES = 'Exit codes: 0 when every input was converted or skipped, 1 when any failed (the others go on), 2 usage error, '
  + '130, 143, 129 after SIGINT, SIGTERM, SIGHUP (the files in progress are finished).';

export const SESSIONS_NOTES = 'Exit codes: 0 success, 1 when the id names no session or several, or a store could not be read (the rest is '
  + 'listed), 2 usage error.';
