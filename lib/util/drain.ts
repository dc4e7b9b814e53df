// Waiting for a writable stream to take more: resolves on 'drain', or on 'error' (a closed pipe must
// never leave a writer waiting forever).

/** Resolve once `stream` drains or fails. */
export function drainedOrFailed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      stream.off('drain', finish);
      stream.off('error', finish);
      done();
    };
    stream.on('drain', finish);
    stream.on('error', finish);
  });
}
