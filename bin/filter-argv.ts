// The plain filter's command line without yargs (which takes longer to load than a short run takes): the
// flags are those the filter command's builder defines, read by running the builder on a recorder, and only
// what is certain is parsed here. Anything else (a command, --help, a short flag, `--`, a value yargs could
// take as a flag or miss, an unknown flag) is left to yargs, which also says what is wrong.
import type { Argv, CommandModule } from 'yargs';
import { COMMANDS } from './help.js';

/** What the builder says of one flag (the parts of a yargs option that parsing uses). */
interface FlagSpec {
  type?: string;
  array?: boolean;
  nargs?: number;
  default?: unknown;
  requiresArg?: boolean;
  coerce?: (value: unknown) => unknown;
}

/** The flags `builder` defines, by name: the builder run on a stand-in for yargs that records `.option()`. */
export function recordFlags(builder: CommandModule['builder']): Map<string, FlagSpec> {
  const flags = new Map<string, FlagSpec>();
  const recorder: object = new Proxy({}, {
    get: (_, method) => (method === 'option'
      ? (name: string, spec: FlagSpec) => {
        flags.set(name, spec);
        return recorder;
      }
      : () => recorder),
  });
  if (typeof builder !== 'function') throw new TypeError('the filter command has no builder function');
  builder(recorder as Argv);
  return flags;
}

/** The flags as typed: --name, and --no-name for booleans (what a usage error may compare the arguments with). */
export function typedFlags(flags: ReadonlyMap<string, FlagSpec>): string[] {
  return [...flags].flatMap(([name, spec]) => (spec.type === 'boolean' ? [`--${name}`, `--no-${name}`] : [`--${name}`]));
}

/**
 * The filter's argv as yargs would make it (each flag by name, `files`), or undefined when `args` hold anything
 * this parser is not sure of: then yargs parses them.
 */
export function filterArgv(args: readonly string[], flags: ReadonlyMap<string, FlagSpec>): Record<string, unknown> | undefined {
  const argv: Record<string, unknown> = {};
  const files: string[] = [];
  // A command's name anywhere, even as a flag's value: yargs decides what it is.
  if (args.some((arg) => COMMANDS.includes(arg))) return undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
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
  if (files.length > 0) argv.files = files;
  return argv;
}
