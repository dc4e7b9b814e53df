// A command line without yargs (which takes longer to load than a short run takes): the flags and the
// operands are those the command defines (its `command` string, and its builder run on a recorder of
// `.option()` and `.positional()`), and only what is certain is parsed here. Anything else (another command's
// name, --help, a short flag, `--`, a value yargs could take as a flag or miss, an unknown flag, operands the
// command does not take, a builder that asks yargs for more than options) is left to yargs, which also says
// what is wrong.
import type { Argv, CommandModule } from 'yargs';
import { COMMANDS } from './help.js';

/** What the builder says of one flag or operand (the parts of a yargs option that parsing uses). */
interface FlagSpec {
  type?: string;
  array?: boolean;
  nargs?: number;
  default?: unknown;
  requiresArg?: boolean;
  coerce?: (value: unknown) => unknown;
}

/** Builder calls that change nothing this parser does: help texts. */
const TEXTS = new Set(['example', 'epilogue']);

/** A command as this parser sees it. */
export interface PlainCommand {
  /** Its name as typed ('' for the default command, the filter). */
  name: string;
  /** Its flags, by name. */
  flags: Map<string, FlagSpec>;
  /** Its operands: their key in argv, whether they are a list and whether one is required. */
  operands: { key: string; list: boolean; required: boolean; spec: FlagSpec };
  /** The builder asked yargs for more than flags, operands and help texts: its command lines go to yargs. */
  other: boolean;
}

/** The command `module` defines: its `command` string (`name [key..]`, `name <key..>`, `name [key]`) and its builder. */
export function recordCommand(module: CommandModule): PlainCommand {
  const form = /^(\S+) ([[<])([\w-]+)(\.\.)?[\]>]$/.exec(typeof module.command === 'string' ? module.command : '');
  if (form === null || typeof module.builder !== 'function') throw new TypeError(`a command of another form: ${String(module.command)}`);
  const command: PlainCommand = {
    name: form[1] === '$0' ? '' : form[1]!,
    flags: new Map(),
    operands: { key: form[3]!, list: form[4] !== undefined, required: form[2] === '<', spec: {} },
    other: false,
  };
  const recorder: object = new Proxy({}, {
    get: (_, method) => (name: string, spec: FlagSpec) => {
      if (method === 'option') {
        command.flags.set(name, spec);
      } else if (method === 'positional' && name === command.operands.key && (spec.type ?? 'string') === 'string' && spec.coerce === undefined) {
        // Operands taken as typed (a string each); one of another type or made by a coerce is left to yargs.
        command.operands.spec = spec;
      } else if (typeof method !== 'string' || !TEXTS.has(method)) {
        command.other = true;
      }
      return recorder;
    },
  });
  module.builder(recorder as Argv);
  return command;
}

/** The flags as typed: --name, and --no-name for booleans (what a usage error may compare the arguments with). */
export function typedFlags(flags: ReadonlyMap<string, FlagSpec>): string[] {
  return [...flags].flatMap(([name, spec]) => (spec.type === 'boolean' ? [`--${name}`, `--no-${name}`] : [`--${name}`]));
}

/**
 * The argv yargs would give `command`'s handler for `args` (the arguments after the command's name: each flag
 * by name, the operands under their key), or undefined when they hold anything this parser is not sure of:
 * then yargs parses them.
 */
export function plainArgv(args: readonly string[], command: PlainCommand): Record<string, unknown> | undefined {
  const { flags, operands } = command;
  if (command.other) return undefined;
  const argv: Record<string, unknown> = {};
  const given: string[] = [];
  // A command's name anywhere, even as a flag's value: yargs decides what it is.
  if (args.some((arg) => COMMANDS.includes(arg))) return undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-' || !arg.startsWith('-')) {
      given.push(arg);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') return undefined;
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    const spec = flags.get(name);
    if (spec === undefined) {
      const negated = name.startsWith('no-') ? flags.get(name.slice(3)) : undefined;
      if (negated?.type !== 'boolean' || value !== undefined || name.slice(3) in argv) return undefined;
      argv[name.slice(3)] = false;
      continue;
    }
    if (spec.type === 'boolean') {
      // yargs takes a `true` or `false` after a boolean flag as its value.
      if (value !== undefined || name in argv || args[i + 1] === 'true' || args[i + 1] === 'false') return undefined;
      argv[name] = true;
      continue;
    }
    if (spec.type !== 'string' || (spec.array === true && spec.nargs !== 1)) return undefined;
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('--') && next !== '--')) {
        // yargs gives a string flag followed by no value its empty string (a bare --monitor).
        if (spec.requiresArg === true) return undefined;
        value = '';
      } else if (next.startsWith('-')) {
        return undefined;
      } else {
        value = next;
        i += 1;
      }
    } else if (value === '') {
      return undefined;
    }
    // Repeated: a list, as yargs makes it (duplicate arguments become an array).
    const before = argv[name];
    argv[name] = spec.array === true || before !== undefined
      ? [...(before === undefined ? [] : Array.isArray(before) ? before : [before]), value] : value;
  }
  for (const [name, spec] of flags) {
    if (!(name in argv) && spec.default !== undefined) argv[name] = spec.default;
    if (spec.coerce !== undefined && name in argv) {
      try {
        argv[name] = spec.coerce(argv[name]);
      } catch {
        return undefined; // yargs reports it
      }
    }
  }
  if (given.length === 0) {
    if (operands.required) return undefined;
    if (operands.spec.default !== undefined) argv[operands.key] = operands.spec.default;
  } else if (operands.list) {
    argv[operands.key] = given;
  } else {
    if (given.length > 1) return undefined;
    argv[operands.key] = given[0];
  }
  return argv;
}
