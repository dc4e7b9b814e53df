// Damaged transcripts: glued records, NUL runs after a crash, cut-off last lines, over-long lines, and the
// line-level oddities Claude Code itself tolerates. Reading goes on and says what it skipped. A huge record a
// later pass reads again is read without toolUseResult, which no pass reads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { recoverRecords, scanRecords } from '../../../../lib/agents/claude-code-cli/reader/scan.js';
import { TranscriptFile } from '../../../../lib/agents/claude-code-cli/reader/transcript-file.js';
import { assistant, readAll, shape, text, user, writeTranscript } from './support.js';

const line = (r: object) => JSON.stringify(r);

describe('recoverRecords', () => {
  test('records glued together on one line are split apart', () => {
    const r = recoverRecords('{"a":1}{"b":"}{"}');
    expect(r).toEqual({ records: [{ a: 1 }, { b: '}{' }], damaged: 0, truncated: false, nuls: 0 });
  });

  test('records separated by a NUL run are recovered and the NULs counted', () => {
    const r = recoverRecords('{"a":1}\u0000\u0000\u0000{"b":2}');
    expect(r.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.nuls).toBe(3);
  });

  test('a record cut off by a crash before a NUL run is dropped and the next one kept', () => {
    const r = recoverRecords('{"type":"user","message":{"ro\u0000\u0000{"type":"assistant"}');
    expect(r.records).toEqual([{ type: 'assistant' }]);
    expect(r.damaged).toBe(1);
    expect(r.truncated).toBe(false);
  });

  test('a cut-off record glued directly to a complete one is resynchronised on the next record start', () => {
    const r = recoverRecords('{"type":"user","message":{"role":"us{"type":"assistant","uuid":"x"}');
    expect(r.records).toEqual([{ type: 'assistant', uuid: 'x' }]);
    expect(r.damaged).toBe(1);
  });

  test('objects nested in a cut-off record are not taken for records', () => {
    const r = recoverRecords('{"type":"assistant","message":{"id":"m","type":"message","content":[{"type":"text","text":"a"}],"usa');
    expect(r.records).toEqual([]);
    expect(r.truncated).toBe(true);
  });

  test('a line ending inside a record is reported as truncated', () => {
    const r = recoverRecords('{"a":1}{"type":"user","mess');
    expect(r.records).toEqual([{ a: 1 }]);
    expect(r.truncated).toBe(true);
    expect(r.damaged).toBe(0);
  });

  test('garbage between records counts as one damaged piece', () => {
    const r = recoverRecords('{"a":1} junk {"b":2}');
    expect(r.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(r.damaged).toBe(1);
  });
});

describe('scanning a transcript file', () => {
  test('glued records on one line are read as separate turns, with a warning', async () => {
    const path = writeTranscript([`${line(user('u1', null, 'hi'))}${line(assistant('a1', 'u1', [text('hello')]))}\n`]);
    const { events, warnings } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'hello']]);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([[1, 'damaged line: recovered 2 record(s)']]);
  });

  test('NUL runs from a crash are skipped and the records after them kept', async () => {
    const path = writeTranscript([
      `${line(user('u1', null, 'hi'))}\n`,
      `{"type":"assistant","uuid":"cut${'\u0000'.repeat(64)}${line(assistant('a1', 'u1', [text('after the crash')]))}\n`,
    ]);
    const { events, warnings } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'after the crash']]);
    expect(warnings[0]).toMatchObject({ line: 2, message: 'damaged line: recovered 1 record(s), skipped 64 NUL byte(s), dropped 1 damaged piece(s)' });
  });

  test('a cut-off last line marks the session partial and keeps everything before it', async () => {
    const path = writeTranscript([`${line(user('u1', null, 'hi'))}\n`, line(assistant('a1', 'u1', [text('cut')])).slice(0, 40)]);
    const { events, warnings, reader } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi']]);
    expect(reader.partial).toBe(true);
    expect(warnings.map((w) => w.message)).toEqual(['the last line is cut off (an interrupted write); the session is partial']);
  });

  test('a complete last line without a newline is not partial', async () => {
    const path = writeTranscript([`${line(user('u1', null, 'hi'))}\n`, line(assistant('a1', 'u1', [text('done')]))]);
    const { events, reader, warnings } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'done']]);
    expect(reader.partial).toBe(false);
    expect(warnings).toEqual([]);
  });

  test('a line over the record limit is skipped with a warning and the lines around it are read', async () => {
    const path = writeTranscript([
      user('u1', null, 'hi'),
      user('u2', 'u1', 'x'.repeat(5000)),
      assistant('a1', 'u1', [text('hello')]),
    ]);
    const { events, warnings } = await readAll(path, { maxRecordBytes: 2000 });
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'hello']]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ line: 2 });
    expect(warnings[0]!.message).toMatch(/^record of \d+ bytes is over the limit of 2000 bytes; skipped$/);
  });

  test('blank lines, CRLF line ends and a BOM are read like Claude Code reads them', async () => {
    const path = writeTranscript([`\uFEFF${line(user('u1', null, 'hi'))}\r\n`, '\r\n', `${line(assistant('a1', 'u1', [text('hello')]))}\r\n`]);
    const { events, warnings } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi'], ['assistant', 'hello']]);
    expect(warnings).toEqual([]);
  });

  test('JSON that is not an object is skipped with a warning', async () => {
    const path = writeTranscript(['[1,2]\n', user('u1', null, 'hi')]);
    const { events, warnings } = await readAll(path);
    expect(shape(events)).toEqual([['user', 'hi']]);
    expect(warnings).toEqual([expect.objectContaining({ line: 1, message: 'not a JSON object; skipped' })]);
  });

  test('a scan limited to a byte count reads only those bytes', async () => {
    const first = user('u1', null, 'hi');
    const path = writeTranscript([first, assistant('a1', 'u1', [text('appended later')])]);
    const seen: unknown[] = [];
    const scan = scanRecords(path, { bytes: line(first).length + 1, warn: () => {} });
    for await (const { record } of scan) seen.push(record.uuid);
    expect(seen).toEqual(['u1']);
  });

  test('a directory is refused as one', async () => {
    const path = writeTranscript([user('u1', null, 'hi')]);
    await expect(readAll(join(path, '..'))).rejects.toThrow(/: cannot be read: is a directory$/);
  });
});

describe('a huge record read again', () => {
  test('is read without its toolUseResult where the first pass noted it: those bytes are not read again', () => {
    const big = 'output line\n'.repeat(200_000);
    const result = {
      parentUuid: null, isSidechain: false, type: 'user', uuid: 'u2', timestamp: '2026-01-01T00:00:00.000Z', sessionId: 'sid',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: big }] }, toolUseResult: { stdout: big },
    };
    const path = writeTranscript([assistant('a1', null, [{ type: 'text', text: 'hi' }]), result]);
    const file = new TranscriptFile(path, { name: 't' });
    const first = file.open();
    while (file.readChunk(first, (line) => {
      if (first.records(line).length === 1) file.noteUnread(line);
    }));
    // The copy's bytes are no longer JSON: a pass that read them would find the line damaged.
    const bytes = readFileSync(path);
    const copy = bytes.indexOf('"toolUseResult"');
    bytes.fill(0x01, copy + 30, copy + 60);
    writeFileSync(path, bytes);
    const second = file.open();
    const records: Record<string, unknown>[] = [];
    while (file.readChunk(second, (line) => records.push(...second.records(line))));
    expect(file.warnings).toEqual([]);
    expect(records.map((r) => r.uuid)).toEqual(['a1', 'u2']);
    expect(records[1]!.message).toEqual(result.message);
    expect(records[1]!.toolUseResult).toBe('');
  });
});
