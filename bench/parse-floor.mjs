// The floor of any Node NDJSON tool, for the benchmark: read stdin, split lines by hand on the Buffers,
// JSON.parse each line, nothing else. Prints the count of parsed lines to stdout (so the work is not dead).
let pending = [];
let count = 0;

function parse(buf, start, end) {
  if (end > start) {
    JSON.parse(buf.toString('utf8', start, end));
    count += 1;
  }
}

process.stdin.on('data', (chunk) => {
  let start = 0;
  let nl = chunk.indexOf(10);
  while (nl !== -1) {
    if (pending.length > 0) {
      pending.push(chunk.subarray(0, nl));
      const line = Buffer.concat(pending);
      pending = [];
      parse(line, 0, line.length);
    } else {
      parse(chunk, start, nl);
    }
    start = nl + 1;
    nl = chunk.indexOf(10, start);
  }
  // The source does not reuse chunk memory, so the tail can be kept without a copy.
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on('end', () => {
  if (pending.length > 0) {
    const line = Buffer.concat(pending);
    parse(line, 0, line.length);
  }
  process.stdout.write(`${count}\n`);
});
