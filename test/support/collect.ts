// A Writable that keeps what is written to it, for the stdout and stderr of in-process runs.
import { Writable } from 'node:stream';

/** A stream to hand to the code under test, and the text written to it so far. */
export function collect(): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(parts).toString('utf8') };
}
