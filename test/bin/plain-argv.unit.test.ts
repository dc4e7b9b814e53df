// Command lines parsed without yargs (bin/plain-argv.ts) against yargs itself: every command line the fast
// parser takes gives the command's handler the same flags and operands as yargs gives it, and what it is not
// sure of it leaves to yargs. The filter (the default command), read, convert and sessions.
import { describe, expect, test } from 'vitest';
import yargs, { type Argv, type CommandModule } from 'yargs';
import { filterCommand } from '../../bin/commands/filter.js';
import { readCommand } from '../../bin/commands/read.js';
import { convertCommand } from '../../bin/commands/convert.js';
import { sessionsCommand } from '../../bin/commands/sessions.js';
import { markOperands, unmarkOperands } from '../../bin/arguments.js';
import { COMMANDS } from '../../bin/help.js';
import { plainArgv, recordCommand, type PlainCommand } from '../../bin/plain-argv.js';

const FILTER = recordCommand(filterCommand as CommandModule);

/** What a command's handler gets from yargs, configured as bin/cli.ts configures it. */
async function yargsArgv(module: CommandModule, args: string[]): Promise<Record<string, unknown>> {
  let parsed: Record<string, unknown> | undefined;
  await yargs(markOperands(args, COMMANDS))
    .middleware((argv) => {
      unmarkOperands(argv);
    }, true)
    .command({ ...module, handler: (argv) => { parsed = argv as Record<string, unknown>; } })
    .strict()
    .fail((message, error) => { throw error ?? new Error(message); })
    .parseAsync();
  return parsed!;
}

/** The flags and operands a handler reads, from an argv. */
const handlerView = (command: PlainCommand, argv: Record<string, unknown>) =>
  Object.fromEntries([...command.flags.keys(), command.operands.key].map((key) => [key, argv[key]]));

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
    const fast = plainArgv(args, FILTER);
    expect(fast).toBeDefined();
    expect(handlerView(FILTER, fast!)).toEqual(handlerView(FILTER, await yargsArgv(filterCommand as CommandModule, args)));
  });

  test.each(LEFT.map((args) => [args.join(' '), args]))('%s is left to yargs', (_, args) => {
    expect(plainArgv(args, FILTER)).toBeUndefined();
  });

  test('the flags are the filter command\'s own, read from its builder', () => {
    expect([...FILTER.flags.keys()].sort()).toEqual([
      'agent-name', 'cwd', 'echo', 'fidelity-json', 'from', 'max-line-bytes', 'model', 'monitor', 'monitor-description', 'prompt',
      'session', 'session-dir', 'session-format', 'strict',
    ]);
    expect(FILTER).toMatchObject({ name: '', operands: { key: 'files', list: true, required: false }, other: false });
  });
});

/** Each named command: command lines taken (after its name) and left to yargs. */
const NAMED: [CommandModule, string[][], string[][]][] = [
  [readCommand as CommandModule, [
    [], ['a.jsonl'], ['a.jsonl', '-', 'b.jsonl'], ['--usage'], ['--usage', '--by', 'session'], ['--usage', '--by=day', 'dir', 'x.jsonl'],
    ['--tree', 'x'], ['--inspect', '0123456789'], ['--no-spills', '--events', '--subagents', 'x'], ['--branch', 'abc', 'x'],
    ['--session-dir', 'claude-code-cli=/a', '--session-dir', 'codex-cli=/b', 'id'], ['--max-record-bytes', '1000', '--threads', '0', 'x'],
    ['--threads=2', '--fidelity-json', 'f.json', 'x'], ['--usage', '123'],
  ], [
    ['--help'], ['--by'], ['--by', '--usage'], ['--threads', 'abc'], ['--threads', '-1'], ['-u'], ['--frobnicate'], ['--', '--usage'],
    ['x', 'convert'], ['--usage', 'true'], ['--max-record-bytes', '0'], ['--get-yargs-completions'],
  ]],
  [convertCommand as CommandModule, [
    ['dir'], ['a.jsonl', 'b.jsonl', 'dir'], ['--session-format', 'codex-cli', 'dir'], ['--jobs', '2', '--watch', 'dir'],
    ['--from', 'codex-rollout', '--session-dir', 'codex-cli=/c', '-'], ['--jobs=1', '--keep-usage', '--no-subagents', 'x'],
  ], [
    [], ['--jobs', '1'], ['--jobs', '0', 'x'], ['--help', 'x'], ['-j', '2', 'x'], ['x', 'read'],
  ]],
  [sessionsCommand as CommandModule, [
    [], ['0123456789'], ['--agent', 'codex-cli', '--agent', 'pi'], ['--here', '--json'], ['--cwd', '/p', '--since', '7d', '--grep', 'auth'],
    ['--no-cache', '--table', '--session-dir', 'codex-cli=/c', 'abcdefgh'],
  ], [
    ['a', 'b'], ['--grep'], ['--since', '--here'], ['--help'], ['--agent'], ['x', 'sessions'],
  ]],
];

describe.each(NAMED.map(([module, taken, left]) => [recordCommand(module).name, module, taken, left] as const))('%s\'s command line without yargs', (name, module, taken, left) => {
  const command = recordCommand(module);

  test.each(taken.map((args) => [args.join(' '), args]))('%s gives the handler what yargs gives it', async (_, args) => {
    const fast = plainArgv(args, command);
    expect(fast).toBeDefined();
    expect(handlerView(command, fast!)).toEqual(handlerView(command, await yargsArgv(module, [name, ...args])));
  });

  test.each(left.map((args) => [args.join(' '), args]))('%s is left to yargs', (_, args) => {
    expect(plainArgv(args, command)).toBeUndefined();
  });
});

test('a builder that asks yargs for more than flags, string operands and help texts leaves every command line to yargs', () => {
  const checked = recordCommand({ command: 'x [files..]', describe: '', builder: (y) => y.option('a', { type: 'boolean' }).conflicts('a', 'b'), handler: () => {} });
  expect(checked.other).toBe(true);
  expect(plainArgv([], checked)).toBeUndefined();
  for (const builder of [(y: Argv) => y.positional('n', { type: 'number' }), (y: Argv) => y.positional('n', { type: 'string', coerce: Number }), (y: Argv) => y.positional('m', { type: 'string' })]) {
    expect(recordCommand({ command: 'x [n]', describe: '', builder, handler: () => {} }).other).toBe(true);
  }
  expect(() => recordCommand({ command: 'x <a> [b]', describe: '', builder: (y) => y, handler: () => {} })).toThrow(/another form/);
});
