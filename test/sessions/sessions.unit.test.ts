// The pure pieces of `sessions`: the grep prefilter's needle forms and its search across chunk boundaries (in a
// file too), the snippet, --since, sizes, the cut title, the generic facts of a file's head and each agent's
// title records.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { snippetAround } from '../../lib/sessions/hits.js';
import { needleForms, Prefilter } from '../../lib/sessions/prefilter.js';
import { humanBytes, parseSince } from '../../lib/sessions/run.js';
import { cutText, genericFacts, latestTitle } from '../../lib/session/session-facts.js';
import { AGENTS } from '../../lib/agents/index.js';
import type { FileEnds } from '../../lib/session/types.js';
import { tempDir } from '../support/run.js';

const describeOf = (format: string) => AGENTS.find((a) => a.harness.format === format)!.sessions!.describe!;

describe('the grep prefilter', () => {
  test('a needle\'s forms: case-folded, JSON-escaped once and twice, non-ASCII as \\u escapes', () => {
    expect(needleForms('Say "Hi"')).toEqual(['say "hi"', 'say \\"hi\\"', 'say \\\\\\"hi\\\\\\"']);
    expect(needleForms('Café')).toEqual(['café', 'caf\\u00e9']);
  });

  test('says what an ASCII case-insensitive search says, for seeded random texts cut into random chunks', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = 'abAB xX"\\:{}zZ@`';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[random(alphabet.length)]).join('');
    for (let round = 0; round < 400; round += 1) {
      const needle = word(1 + random(5)).toLowerCase();
      const text = word(random(60));
      const filter = new Prefilter([needle]);
      const bytes = Buffer.from(text);
      let found = false;
      for (let at = 0; at < bytes.length;) {
        const next = at + 1 + random(8);
        found = filter.push(bytes.subarray(at, next));
        at = next;
      }
      expect(found, JSON.stringify({ needle, text })).toBe(text.replace(/[A-Z]/g, (c) => c.toLowerCase()).includes(needle));
    }
  });

  test('finds a form split across two chunks, in any case; misses what is not there', () => {
    const hit = new Prefilter(needleForms('needle'));
    expect(hit.push(Buffer.from('{"text":"a NEE'))).toBe(false);
    expect(hit.push(Buffer.from('DLE here"}'))).toBe(true);
    const miss = new Prefilter(needleForms('needle'));
    expect(miss.push(Buffer.from('{"text":"a need'))).toBe(false);
    expect(miss.push(Buffer.from('ed thing"}'))).toBe(false);
    const utf8 = new Prefilter(needleForms('CAFÉ'));
    const bytes = Buffer.from('{"text":"au café"}');
    expect(utf8.push(bytes.subarray(0, 16))).toBe(false);
    expect(utf8.push(bytes.subarray(16))).toBe(true);
  });

  test('bytes apart from a stream: a form in any case, JSON-escaped or not; nothing carried from one to the next', () => {
    const ascii = new Prefilter(needleForms('Say "Hi"'));
    expect(ascii.holds(Buffer.from('{"text":"they SAY \\"hi\\" twice"}'))).toBe(true);
    expect(ascii.holds(Buffer.from('say "hi"'))).toBe(true);
    expect(ascii.holds(Buffer.from('{"text":"say \\"'))).toBe(false);
    expect(ascii.holds(Buffer.from('hi\\""}'))).toBe(false);
    const utf8 = new Prefilter(needleForms('Привет'));
    expect(utf8.holds(Buffer.from('{"text":"ПРИВЕТ мир"}'))).toBe(true);
    expect(utf8.holds(Buffer.from('{"text":"\\u043f\\u0440\\u0438\\u0432\\u0435\\u0442"}'))).toBe(true);
    expect(utf8.holds(Buffer.from('{"text":"При'))).toBe(false);
    expect(utf8.holds(Buffer.from('вет"}'))).toBe(false);
  });

  test('a file is found holding a form wherever it lies, across the reads of it, and not found without one', () => {
    const dir = tempDir();
    const filter = new Prefilter(needleForms('Zephyr'));
    const utf8 = new Prefilter(needleForms('Café'));
    const filler = Buffer.alloc(700_000, 'abc def "\\n" ');
    // Around each power of two a read might end at, and at the file's ends.
    const offsets = [0, 699_990, ...[16, 17, 18, 19].flatMap((p) => [-7, -3, -1, 0, 1].map((d) => 2 ** p + d))];
    for (const at of offsets) {
      for (const [prefilter, text] of [[filter, 'zEPHYR'], [utf8, 'CAFÉ']] as const) {
        const path = join(dir, `at-${at}.jsonl`);
        const bytes = Buffer.from(filler);
        const needle = Buffer.from(text);
        needle.copy(bytes, Math.min(at, bytes.length - needle.length));
        writeFileSync(path, bytes);
        expect(prefilter.reset().scanFile(path), `${text} at ${at}`).toBe(true);
        writeFileSync(path, filler);
        expect(prefilter.reset().scanFile(path), `no ${text}`).toBe(false);
      }
    }
  });

  test('the snippet: the match with some text around it, on one line', () => {
    expect(snippetAround('short\ntext with Needle in it', 'needle')).toBe('short text with Needle in it');
    expect(snippetAround(`${'a'.repeat(50)} needle ${'b'.repeat(50)}`, 'needle')).toBe(`…${'a'.repeat(29)} needle ${'b'.repeat(29)}…`);
    expect(snippetAround('nothing', 'needle')).toBeUndefined();
  });
});

describe('--since, sizes, titles', () => {
  const now = Date.parse('2026-12-05T12:00:00.000Z');
  test('an age or a time', () => {
    expect(parseSince('30m', now)).toBe(now - 30 * 60_000);
    expect(parseSince('2w', now)).toBe(now - 14 * 86_400_000);
    expect(parseSince('2026-12-01T10:00Z', now)).toBe(Date.parse('2026-12-01T10:00:00.000Z'));
    expect(parseSince('2026-12-01', now)).toBe(Date.parse('2026-12-01'));
    for (const bad of ['yesterday', '7', '1y', '2026-13-45x']) expect(() => parseSince(bad, now)).toThrow(/--since/);
  });

  test('sizes and cut text', () => {
    expect([humanBytes(512), humanBytes(1234), humanBytes(45_600_000), humanBytes(2_000_000_000)]).toEqual(['512 B', '1.2 KB', '46 MB', '2.0 GB']);
    expect(cutText('  two\n\nlines  ')).toBe('two lines');
    expect(cutText('x'.repeat(100))).toBe(`${'x'.repeat(79)}…`);
  });
});

describe('facts from a file\'s head and end', () => {
  const ends = (head: unknown[], tail: unknown[] = []): FileEnds => ({ head, tail });

  test('the first absolute cwd and the first time, wherever a record keeps them', () => {
    expect(genericFacts(ends([{ type: 'x' }, { timestamp: '2026-11-29T22:10:35.086Z', payload: { cwd: '/home/user/project' } }])))
      .toEqual({ cwd: '/home/user/project', started: '2026-11-29T22:10:35.086Z' });
    expect(genericFacts(ends([{ data: { context: { cwd: 'relative' } }, time: 1764000000000 }]))).toEqual({ started: new Date(1764000000000).toISOString() });
  });

  test('the latest title record wins, the end after the head', () => {
    const pick = (r: Record<string, unknown>) => (r.type === 't' ? r.title : undefined);
    expect(latestTitle(ends([{ type: 't', title: 'first' }], [{ type: 't', title: 'later' }, { type: 'u', title: 'not a title' }]), pick)).toBe('later');
    expect(latestTitle(ends([{ type: 't', title: '  ' }]), pick)).toBeUndefined();
  });

  test('each agent\'s own title record', async () => {
    expect(await describeOf('claude-code-cli')([], ends([{ type: 'summary', summary: 'A summary' }], [{ type: 'custom-title', customTitle: 'Renamed' }])))
      .toEqual({ title: 'Renamed' });
    expect(await describeOf('claude-code-cli')([], ends([{ type: 'summary', summary: 'A summary' }]))).toEqual({ title: 'A summary' });
    expect(await describeOf('pi')([], ends([{ type: 'session_info', name: 'old' }], [{ type: 'session_info', name: 'new' }]))).toEqual({ title: 'new' });
    expect(await describeOf('qwen-code')([], ends([], [{ type: 'system', subtype: 'custom_title', systemPayload: { customTitle: 'Mine' } }])))
      .toEqual({ title: 'Mine' });
    expect(await describeOf('droid')([], ends([{ type: 'session_start', title: 'Droid title' }]))).toEqual({ title: 'Droid title' });
    expect((await describeOf('gemini-cli')(['/nonexistent/tmp/p/chats/session-x.jsonl'], ends([{ sessionId: 's', summary: 'first' }], [{ $set: { summary: 'second' } }]))).title)
      .toBe('second');
    expect(await describeOf('droid')([], ends([{ type: 'message' }]))).toEqual({});
  });
});
