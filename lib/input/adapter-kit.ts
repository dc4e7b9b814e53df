// Small helpers every adapter of another agent's format uses: shape checks on parsed JSON, and warnings that are
// reported once per kind (another agent's stream repeats what it repeats; the user needs to hear it once).

import { isObject } from '../util/is-object.js';
export { isObject } from '../util/is-object.js';

/** A string field, or undefined when absent or not a string. */
export function text(obj: Record<string, unknown>, key: string): string | undefined {
  const value = obj[key];
  return typeof value === 'string' ? value : undefined;
}

export { WarnOnce } from '../util/warn-once.js';
