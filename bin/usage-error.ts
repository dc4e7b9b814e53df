// How a usage error is told, in every command: `asyncai-log: <what>`, then `Try 'asyncai-log <command> --help'.`,
// exit 2, nothing else. What yargs found is said our way: an unknown flag as it was typed, with the closest flag
// the command knows; an unexpected word with the closest command; a missing operand or value by name.
import type { Argv } from 'yargs';
import { COMMANDS } from './help.js';
import { diagnosticLine } from '../lib/filter/index.js';

/** Edit distance with adjacent transpositions (optimal string alignment): "sesion" -> "session" is 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest of `candidates` to `typed`: the only one it begins, else the nearest within a third of its length. */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const extending = candidates.filter((candidate) => candidate.startsWith(typed));
  if (extending.length === 1) return extending[0];
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The flags the command being parsed accepts as typed: --long, -s, and --no-long for booleans; hidden ones left out. */
export function knownFlags(y: Argv): string[] {
  // getOptions is yargs' (its options in the current command's context); its types (17) leave it out.
  const options = (y as unknown as { getOptions(): unknown }).getOptions() as {
    key: Record<string, unknown>; alias: Record<string, string[]>; boolean: string[]; hiddenOptions: string[];
  };
  const flags: string[] = [];
  for (const key of Object.keys(options.key)) {
    if (options.hiddenOptions.includes(key) || /[A-Z]/.test(key)) continue;
    for (const name of [key, ...(options.alias[key] ?? [])]) {
      if (/[A-Z]/.test(name)) continue;
      flags.push(name.length === 1 ? `-${name}` : `--${name}`);
      if (options.boolean.includes(key) && name.length > 1 && key !== 'help' && key !== 'version') flags.push(`--no-${name}`);
    }
  }
  return flags;
}

/** The first flag among `args` (up to `--`) that the command does not know, as typed: --name of --name=x, -n of -xn. */
function firstUnknownFlag(args: readonly string[], flags: readonly string[]): string | undefined {
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const flag = arg.split('=')[0]!;
      if (!flags.includes(flag)) return flag;
    } else if (/^-[^-\d]/.test(arg)) {
      const letter = [...arg.slice(1).split('=')[0]!].find((c) => !flags.includes(`-${c}`));
      if (letter !== undefined) return `-${letter}`;
    }
  }
  return undefined;
}

/**
 * The line for a usage error yargs reports (`message`), when what is wrong is an unknown flag (whatever yargs
 * noticed first: a flag taking the next word as its value can leave a command short of arguments) or an
 * unexpected word; undefined for other errors. `args` are the command line's arguments; `flags` what the
 * command accepts.
 */
export function unknownArgumentMessage(message: string, args: readonly string[], flags: readonly string[]): string | undefined {
  const command = commandOf(args);
  const flag = firstUnknownFlag(args, flags);
  if (flag !== undefined) {
    const suggestion = flag.startsWith('--') ? closest(flag, flags.filter((known) => known.startsWith('--'))) : undefined;
    return `unknown option ${flag}${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ''}`;
  }
  const match = /^Unknown arguments?: (.*)$/s.exec(message);
  if (match === null) return undefined;
  const word = match[1]!.split(', ')[0]!;
  const suggestion = command === undefined ? closest(word, COMMANDS) : undefined;
  return `unexpected argument ${JSON.stringify(word)}${suggestion !== undefined ? ` (did you mean ${suggestion}?)` : ''}`;
}

/** What each command wants as operands, for the line that says none was given. */
const OPERANDS: Record<string, string> = {
  read: 'a transcript file, a session id or - (stdin)',
  convert: 'a file, directory or session id to convert',
};

/**
 * The `<what>` of a usage error yargs reports as `message`, said our way (see unknownArgumentMessage; a
 * missing operand or flag value named); any other message as yargs wrote it.
 */
export function usageErrorMessage(message: string, args: readonly string[], flags: readonly string[]): string {
  const unknown = unknownArgumentMessage(message, args, flags);
  if (unknown !== undefined) return unknown;
  const command = commandOf(args);
  if (/^Not enough non-option arguments/.test(message) && command !== undefined && OPERANDS[command] !== undefined) {
    return `missing argument: ${command} wants ${OPERANDS[command]}`;
  }
  const value = /^Not enough arguments following: (.*)$/.exec(message);
  if (value !== null) return `--${value[1]} wants a value`;
  return message;
}

/** The command named on the command line (`read`, `convert`, `completion`), or undefined for the filter. */
export function commandOf(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).find((arg) => COMMANDS.includes(arg));
}

/** The whole of a usage error on stderr: `asyncai-log: <what>` and the line naming the command's help. */
export function usageErrorText(what: string, command: string | undefined): string {
  return `${diagnosticLine(what)}Try 'asyncai-log${command !== undefined ? ` ${command}` : ''} --help'.\n`;
}

/**
 * The line for a file operand of the default command that is a mistyped command (`asyncai-log conver logs`):
 * the first operand that names no file, has no `/` or `.` (so it is no path), and is spelled like a command.
 * Undefined when there is none: a missing file is otherwise reported like `cat` reports it.
 */
export function mistypedCommand(files: readonly string[], exists: (path: string) => boolean): string | undefined {
  const word = files.find((file) => file !== '-' && !exists(file));
  if (word === undefined || /[./]/.test(word)) return undefined;
  const suggestion = closest(word, COMMANDS);
  return suggestion === undefined ? undefined : `unexpected argument "${word}" (did you mean ${suggestion}?)`;
}
