// The native input format: generic events, one per line (see lib/events.ts and docs/input-formats.md).
import { normalizeEvent, type GenericEvent } from '../events.js';
import { InputError, type InputAdapter, type InputFormat } from './types.js';
import { isObject } from '../util/is-object.js';

export const genericEvents: InputFormat = {
  name: 'events',
  detect(value) {
    if (value === 'MonitorConsumed') return true;
    if (!isObject(value)) return false;
    if (typeof value.type === 'string') return true;
    const keys = Object.keys(value);
    return keys.length === 1 && /^[A-Z][A-Za-z]+$/.test(keys[0]!);
  },
  create(): InputAdapter {
    return {
      format: 'events',
      map(value, now, warn): GenericEvent[] {
        const result = normalizeEvent(value, now);
        if (!result.ok) throw new InputError(result.error);
        if (result.event !== null) for (const warning of result.warnings ?? []) warn(warning);
        return result.event ? [result.event] : [];
      },
      end: () => [],
      facts: () => ({}),
    };
  },
};
