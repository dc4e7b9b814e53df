// Exit with a code once stdout and stderr have drained (a pipe reader must get every byte we wrote).

export function exitWhenDrained(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.writableNeedDrain) stream.once('drain', done);
    else done();
  }
}
