// User, assistant and monitor notification records are serialised by template
// (lib/agents/claude-code-cli/serialize.ts), in text and byte pieces: the line
// must be exactly what JSON.stringify gives, for every event the generator makes (quotes, control characters,
// lone surrogates, odd models and usage, usage summed over a response), and the same value when long strings
// are spliced from the input.
import { describe, expect, test } from 'vitest';
import { normalizeEvent } from '../../../lib/events.js';
import { ClaudeRecordMapper } from '../../../lib/agents/claude-code-cli/records.js';
import { serializeRecord } from '../../../lib/agents/claude-code-cli/serialize.js';
import { LineSplitter } from '../../../lib/lines/lines.js';
import { jsonSourceOf, parseLine } from '../../../lib/json/raw-json.js';
import { generateInput } from '../../reliability/generate.js';
import { withSeed } from '../../reliability/support.js';

const T = '2026-11-29T10:00:00.000Z';

/** The text of serialised pieces, as they are written back to back. */
function lineOf(pieces: readonly (string | Uint8Array)[]): string {
  return Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece))).toString('utf8');
}

/** Input line `text` read, mapped to its one record and serialised with the line's bytes at hand. */
function serializedLine(mapper: ClaudeRecordMapper, text: string): { record: ReturnType<ClaudeRecordMapper['map']>['records'][number]; out: (string | Uint8Array)[] } {
  const [line] = new LineSplitter().push(Buffer.from(`${text}\n`));
  const value = parseLine(line!);
  const event = normalizeEvent(value, T);
  if (!event.ok || !event.event) throw new Error('valid event expected');
  const [record] = mapper.map(event.event).records;
  const out: (string | Uint8Array)[] = [];
  serializeRecord(record!, out, jsonSourceOf(line!, value));
  return { record: record!, out };
}

describe('records serialised by template', () => {
  test('every line is exactly JSON.stringify of its record, for generated hostile events', async () => {
    await withSeed('serialize-template', (rng) => {
      const mapper = new ClaudeRecordMapper({
        sessionId: 'S', cwd: '/p/"quoted"\\dir', gitBranch: 'feature/ü', provenance: { convertedFrom: 'x\u0001' },
      });
      const input = generateInput(rng, 3000, 0);
      let turns = 0;
      let notifications = 0;
      let summed = 0;
      for (const line of input.data.toString('utf8').split(/\r?\n/)) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          continue;
        }
        const result = normalizeEvent(value, T);
        if (!result.ok || !result.event) continue;
        const usage = 'usage' in result.event ? result.event.usage : undefined;
        for (const record of mapper.map(result.event).records) {
          const out: (string | Uint8Array)[] = [];
          serializeRecord(record, out);
          expect(lineOf(out)).toBe(`${JSON.stringify(record)}\n`);
          if (record.type === 'user' || record.type === 'assistant') turns += 1;
          if (record.type === 'attachment' || record.type === 'queue-operation') notifications += 1;
          // Usage reported again in one response: the record carries a sum made here, not the event's object.
          if (usage !== undefined && (record.message as { usage?: unknown }).usage !== usage) summed += 1;
        }
      }
      expect(turns).toBeGreaterThan(1000);
      expect(notifications).toBeGreaterThan(30);
      expect(summed).toBeGreaterThan(10);
    });
  });

  test('with the input line\'s own members spliced in, every line holds the value of its record', async () => {
    await withSeed('serialize-members', (rng) => {
      const mapper = new ClaudeRecordMapper({ sessionId: 'S', cwd: '/p' });
      const input = generateInput(rng, 3000, 0);
      const splitter = new LineSplitter();
      let spliced = 0;
      let records = 0;
      for (const line of [...splitter.push(input.data), ...splitter.end()]) {
        let value: unknown;
        try {
          value = parseLine(line);
        } catch {
          continue;
        }
        const result = normalizeEvent(value, T);
        if (!result.ok || !result.event) continue;
        const source = jsonSourceOf(line, value);
        for (const record of mapper.map(result.event).records) {
          const out: (string | Uint8Array)[] = [];
          serializeRecord(record, out, source);
          const written = lineOf(out);
          expect(written.endsWith('\n')).toBe(true);
          expect(written.indexOf('\n')).toBe(written.length - 1);
          expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(record)));
          records += 1;
          if (out.some((piece) => typeof piece !== 'string' && piece.length > 0 && piece !== out[out.length - 1])) spliced += 1;
        }
      }
      expect(records).toBeGreaterThan(1000);
      expect(spliced).toBeGreaterThan(300);
    });
  });

  test('with long strings spliced from the input line, the line holds the same value as the record', () => {
    const mapper = new ClaudeRecordMapper({ sessionId: 'S', cwd: '/p' });
    const long = `"quoted" \\ \u0001 ü 😀 ${'x'.repeat(5000)}`;
    const { record, out } = serializedLine(mapper, JSON.stringify({ type: 'tool_call', id: 't', name: 'Bash', arguments: { command: long, n: 1 } }));
    expect(out.some((piece) => typeof piece !== 'string')).toBe(true);
    const written = lineOf(out);
    expect(written.endsWith('\n')).toBe(true);
    expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(record)));
  });

  test('a result without its call, kept as user text, splices its string after the header (nothing flattened or copied)', () => {
    const mapper = new ClaudeRecordMapper({ sessionId: 'S', cwd: '/p' });
    const content = `"quoted" \\ \u0001 ü 😀 é ${'x'.repeat(5000)}`;
    // Escapes the producer chose (\u00fc for ü) stay as written: the same value.
    const raw = JSON.stringify(content).replace('ü', '\\u00fc');
    const { record, out } = serializedLine(mapper, `{"type":"tool_result","id":${JSON.stringify('toolu "odd" \u2028')},"content":${raw},"is_error":true}`);
    expect(out.some((piece) => typeof piece !== 'string' && piece.length > 5000)).toBe(true);
    const written = JSON.parse(lineOf(out));
    expect(written).toEqual(JSON.parse(JSON.stringify(record)));
    expect(written.message.content).toBe(`[Tool result for call toolu "odd" \u2028 (error); no matching tool call was recorded]\n${content}`);
    // Without the line's bytes the record is serialised as usual, to the same value.
    const plain: (string | Uint8Array)[] = [];
    serializeRecord(record!, plain);
    expect(JSON.parse(lineOf(plain))).toEqual(written);
  });
});
