// Contract item 5, for every registered format: bad input lines (not JSON, a JSON value that is not an object,
// an unknown event type, an event missing a required field) each get one stderr line naming the line number;
// the run goes on and exits 0 (README, Exit codes), and the events before and after them are written, in order.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { binArgs, ev, FORMATS, requireDriver, runBinFixed, sessionEntry } from './support.js';

const BEFORE = 'contract text before the bad lines';
const AFTER = 'contract text after the bad lines';

const INPUT = [
  ev({ type: 'user', text: BEFORE }),
  'this is not JSON {\n',
  '[1, 2, 3]\n',
  ev({ type: 'no_such_event', text: 'x' }),
  ev({ type: 'tool_call', name: 'Bash', arguments: { command: 'ls' } }),
  ev({ type: 'assistant', text: AFTER }),
].join('');

describe.each(FORMATS)('%s', (format) => {
  test('5. each bad line is one stderr line with its number, the run goes on and exits 0, and what came before and after is written', async () => {
    const driver = await requireDriver(format);
    const place = driver.place();
    const r = await runBinFixed([...binArgs(format, place), '--from', 'events'], place, INPUT);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines.map((l) => /^asyncai-log: stdin:(\d+): \S/.exec(l)?.[1])).toEqual(['2', '3', '4', '5']);
    const text = readFileSync(sessionEntry(r, format).session_file, 'utf8');
    expect(text.indexOf(BEFORE)).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(AFTER)).toBeGreaterThan(text.indexOf(BEFORE));
  });
});
