// The plain filter's command line parsed without yargs (bin/filter-argv.ts) against yargs itself: every command
// line the fast parser takes gives the filter's handler the same flags and files as yargs gives it, and what it
// is not sure of it leaves to yargs.
import { describe, expect, test } from 'vitest';
import yargs from 'yargs';
import { filterCommand } from '../../bin/commands/filter.js';
import { markOperands, unmarkOperands } from '../../bin/arguments.js';
import { COMMANDS } from '../../bin/help.js';
import { filterArgv, recordFlags } from '../../bin/filter-argv.js';

const FLAGS = recordFlags(filterCommand.builder);

/** What the filter's handler gets from yargs, configured as bin/cli.ts configures it for the default command. */
async function yargsArgv(args: string[]): Promise<Record<string, unknown>> {
  let parsed: Record<string, unknown> | undefined;
  await yargs(markOperands(args, COMMANDS))
    .middleware((argv) => {
      unmarkOperands(argv);
    }, true)
    .command({ ...filterCommand, handler: (argv) => { parsed = argv as Record<string, unknown>; } })
    .strict()
    .fail((message, error) => { throw error ?? new Error(message); })
    .parseAsync();
  return parsed!;
}

/** The flags and files a handler reads, from an argv. */
const handlerView = (argv: Record<string, unknown>) => Object.fromEntries([...FLAGS.keys(), 'files'].map((key) => [key, argv[key]]));

const TAKEN: string[][] = [
  [],
  ['--cwd', '/tmp/x', '--session-dir', 'claude-code-cli=/tmp/x'],
  ['--cwd=/tmp/x', '--session-dir=claude-code-cli=/tmp/x', 'a.ndjson', '-', 'b.ndjson'],
  ['--session-format', 'claude-code-cli', '--session-format', 'codex-cli', '--session-dir', 'codex-cli=/c', '--session-dir', 'claude-code-cli=/d'],
  ['--no-session', '--echo', '--strict', '--from', 'codex-exec-json', '--prompt', 'fix the bug', '--model', 'm'],
  ['--agent-name', 'bot', '--max-line-bytes', '1000', '123', 'file with spaces'],
  ['--max-line-bytes=1048576', '--no-echo', '--no-strict', '--session'],
  ['--monitor', 'tail -f log', '--monitor-description', 'the log'],
  ['--monitor', 'a', '--monitor', 'b', '--monitor-description', 'x', '--monitor-description', 'y'],
  ['--monitor'],
  ['--monitor', '--cwd', '/p'],
  ['--cwd', 'a', '--cwd', 'b'],
  ['--prompt', 'a=b', 'x=y'],
];

const LEFT: string[][] = [
  ['--help'], ['-h'], ['--version'], ['read', 'x'], ['convert', 'x'], ['completion'], ['--from', 'read'],
  ['--', '--cwd'], ['-x'], ['--frobnicate'], ['--cwd'], ['--cwd', '-'], ['--cwd', '--echo'], ['--cwd='],
  ['--echo', 'true'], ['--echo=false'], ['--echo', '--no-echo'], ['--no-cwd'], ['--max-line-bytes', 'abc'],
  ['--max-line-bytes', '0'], ['--monitor', '-'], ['--sessionFormat', 'codex-cli'], ['--get-yargs-completions', ''],
];

describe('the plain filter\'s command line without yargs', () => {
  test.each(TAKEN.map((args) => [args.join(' '), args]))('%s gives the handler what yargs gives it', async (_, args) => {
    const fast = filterArgv(args, FLAGS);
    expect(fast).toBeDefined();
    expect(handlerView(fast!)).toEqual(handlerView(await yargsArgv(args)));
  });

  test.each(LEFT.map((args) => [args.join(' '), args]))('%s is left to yargs', (_, args) => {
    expect(filterArgv(args, FLAGS)).toBeUndefined();
  });

  test('the flags are the filter command\'s own, read from its builder', () => {
    expect([...FLAGS.keys()].sort()).toEqual([
      'agent-name', 'cwd', 'echo', 'fidelity-json', 'from', 'max-line-bytes', 'model', 'monitor', 'monitor-description', 'prompt',
      'session', 'session-dir', 'session-format', 'strict',
    ]);
  });
});
