// A stream face for any input adapter: parsed JSON values in (object mode), generic events out. For
// programs that compose their own pipeline (e.g. split2 + JSON.parse -> this -> their own sink); the
// filter drives adapters directly so it can write each input chunk's records in one write.
import { Transform, type TransformCallback } from 'node:stream';
import type { GenericEvent } from '../events.js';
import { detectInputFormat, findInputFormat, inputFormatNames } from './input-formats.js';
import { InputError, type InputAdapter, type InputFormat, type SessionFacts } from '../input/types.js';

export interface AdapterStreamOptions {
  /** A located, non-fatal problem (value number, 1-based, and message); default: ignored. */
  onWarning?: (message: string, index: number) => void;
  /** Fail the stream on a value the adapter rejects, instead of reporting it through onWarning. */
  strict?: boolean;
  /** The timestamp for events that carry none (default: the time the value is mapped). */
  now?: () => string;
}

/** An object-mode Transform from parsed values to generic events, plus what the stream said about its session. */
export interface AdapterStream extends Transform {
  /** The adapter in use (undefined under `auto` until the first value arrives). */
  readonly adapter: InputAdapter | undefined;
  facts(): SessionFacts;
}

/**
 * Wrap an input format as a stream. `format` is a registered name (`codex-exec-json`, ...), `auto` (decided
 * by the first value, as the filter does) or an InputFormat. An unknown name throws at once; a first value
 * that matches no format, and (with `strict`) a rejected value, fail the stream through its callback.
 */
export function createAdapterStream(format: string | InputFormat, options: AdapterStreamOptions = {}): AdapterStream {
  let chosen: InputFormat | undefined;
  if (typeof format !== 'string') chosen = format;
  else if (format !== 'auto') {
    chosen = findInputFormat(format);
    if (!chosen) throw new Error(`unknown input format ${JSON.stringify(format)} (known: auto, ${inputFormatNames().join(', ')})`);
  }
  let adapter = chosen?.create();
  let index = 0;
  const now = options.now ?? (() => new Date().toISOString());
  const onWarning = options.onWarning ?? (() => {});

  const emit = (stream: Transform, events: GenericEvent[]) => {
    for (const event of events) stream.push(event);
  };

  const stream = new Transform({
    objectMode: true,
    transform(value: unknown, _encoding, callback: TransformCallback) {
      index += 1;
      const at = index;
      if (!adapter) {
        const detected = detectInputFormat(value);
        if (!detected) {
          callback(new Error(`value ${at}: input matches no known format (expected one of: ${inputFormatNames().join(', ')})`));
          return;
        }
        adapter = detected.create();
      }
      try {
        emit(this, adapter.map(value, now(), (message) => onWarning(message, at)));
      } catch (error) {
        if (!(error instanceof InputError)) {
          callback(error as Error);
          return;
        }
        if (options.strict) {
          callback(new InputError(`value ${at}: ${error.message}`));
          return;
        }
        onWarning(error.message, at);
      }
      callback();
    },
    flush(callback: TransformCallback) {
      try {
        if (adapter) emit(this, adapter.end(now(), (message) => onWarning(message, index)));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  return Object.defineProperties(stream, {
    adapter: { get: () => adapter, enumerable: true },
    facts: { value: () => adapter?.facts() ?? {} },
  }) as AdapterStream;
}
