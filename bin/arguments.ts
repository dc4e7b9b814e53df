// What yargs does not do the Unix way: a lone `-` (stdin) and everything after `--` are operands, never
// options, and numbers are whole decimal numbers in a stated range (yargs would take `abc` as NaN and `''` as 0).
import { UsageError } from '../lib/filter/index.js';

/** Marks an operand for yargs: no argument a shell can pass holds a NUL, so nothing else starts with it. */
const OPERAND = '\u0000';

/**
 * The arguments as yargs should see them: `-` and whatever follows `--` marked as operands (so no option
 * takes them, and a command name after `--` is a file), `--` itself dropped. The operands after `--` move
 * to just after the command name, where no option can take them as its value.
 */
export function markOperands(args: readonly string[], commands: readonly string[]): string[] {
  const end = args.indexOf('--');
  const before = (end === -1 ? args : args.slice(0, end)).map((arg) => (arg === '-' ? OPERAND + arg : arg));
  if (end === -1) return before;
  const after = args.slice(end + 1).map((arg) => OPERAND + arg);
  const at = before.length > 0 && commands.includes(before[0]!) ? 1 : 0;
  return [...before.slice(0, at), ...after, ...before.slice(at)];
}

/** `value` with the operand marks of markOperands taken off again (strings, arrays of them, an argv object). */
export function unmarkOperands<T>(value: T): T {
  if (typeof value === 'string') return (value.startsWith(OPERAND) ? value.slice(OPERAND.length) : value) as T;
  if (Array.isArray(value)) return value.map(unmarkOperands) as T;
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) (value as Record<string, unknown>)[key] = unmarkOperands(inner);
  }
  return value;
}

/**
 * A yargs `coerce` for a numeric flag: a whole decimal number from `min` to `max`, else a usage error that
 * names the flag, the range and what was given. Defaults (numbers already) pass as they are.
 */
export function wholeNumber(flag: string, min: number, max: number): (value: unknown) => number {
  return (value) => {
    if (typeof value === 'number') return value;
    const text = unmarkOperands(String(Array.isArray(value) ? value[value.length - 1] : value));
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(n >= min && n <= max)) {
      throw new UsageError(`--${flag} wants a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
    }
    return n;
  };
}

/** The most worker threads (or files at once) a flag may ask for. */
export const MAX_THREADS = 256;
/** The longest line or record a flag may allow: 1 GiB (a line is held in one buffer, which grows by half). */
export const MAX_LINE_BYTES = 1024 * 1024 * 1024;
