// Task ids for monitors, in the shape Claude Code gives its background tasks: "b" and 8 characters of
// [a-z0-9]. Each monitor source draws one; events without one get one per description from the harness.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh task id: `b` + 8 random characters of [a-z0-9]. */
export function newTaskId(): string {
  // 252 is the largest multiple of 36 below 256: rejecting bytes above it keeps every character equally likely.
  let out = 'b';
  while (out.length < 9) {
    for (const byte of randomBytes(16)) {
      if (byte < 252 && out.length < 9) out += ALPHABET[byte % 36];
    }
  }
  return out;
}

/** Whether `id` has Claude Code's task id shape. */
export function isTaskId(id: string): boolean {
  return /^b[a-z0-9]{8}$/.test(id);
}
