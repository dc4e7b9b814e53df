// pi's transcript reader through the built bin: `read --tree`, `--branch`, `--usage` on a session with two
// branches (fixtures/pi/branched.jsonl: the captured session, then a prompt pi's tree navigation chained onto an
// earlier reply), and `read <id>` / `read <prefix>` of a session the bin itself wrote under a temp HOME.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES, cleanEnv, runBin, sessionOf, tempDir } from '../../support/run.js';

const BRANCHED = join(FIXTURES, 'pi', 'branched.jsonl');
const ID = '01a242d8-6c54-707f-8820-ed9dacb8e1f3';
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('read of a pi session with branches', () => {
  test('--tree prints one line per branch; the one pi continues (its last line\'s chain) is resumed', async () => {
    const r = await runBin(['read', '--tree', BRANCHED]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(lines(r.stdout)).toEqual([
      { session_id: ID, leaf: 'e59c5647', resumed: false, records: 7, forks_from: '4f94b5cd', line: 10, timestamp: '2026-12-04T20:56:56.076Z', last_prompt: 'Anything else?' },
      { session_id: ID, leaf: 'b7e0c2a2', resumed: true, records: 7, forks_from: null, line: 12, timestamp: '2026-12-04T20:57:10.400Z', last_prompt: 'Read notes.txt instead.' },
    ]);
  });

  test('plain read gives the branch pi continues; --branch the other one', async () => {
    const resumed = await runBin(['read', BRANCHED]);
    expect(resumed.code).toBe(0);
    const texts = (stdout: string) => lines(stdout).filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
    expect(texts(resumed.stdout).slice(-2)).toEqual(['Read notes.txt instead.', 'It says: remember the milk.']);
    expect(texts(resumed.stdout)).not.toContain('Anything else?');
    const other = await runBin(['read', '--branch', 'e59c5647', BRANCHED]);
    expect([other.code, other.stderr]).toEqual([0, '']);
    // The captured session's own golden events are that branch.
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'pi', 'session.events.json'), 'utf8')).events;
    expect(lines(other.stdout)).toEqual(golden);
  });

  test('--branch naming no entry exits 1 with one line', async () => {
    const r = await runBin(['read', '--branch', 'feedbeef', BRANCHED]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`asyncai-log: ${BRANCHED}: no entry with id "feedbeef" (--branch)\n`);
  });

  test('--usage sums every assistant message of every branch, by model', async () => {
    const r = await runBin(['read', '--usage', BRANCHED]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(lines(r.stdout)).toEqual([{
      session_id: ID, responses: 4, input_tokens: 440, output_tokens: 39, cache_creation_input_tokens: 0, cache_read_input_tokens: 20,
      by_model: {
        'mock-think': { responses: 3, input_tokens: 300, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        'mock-model': { responses: 1, input_tokens: 140, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 20 },
      },
    }]);
  });

  test('a session whose last line was cut off reads what is before it, with one warning naming the line', async () => {
    const whole = readFileSync(BRANCHED, 'utf8');
    const cut = join(tempDir(), 'cut.jsonl');
    writeFileSync(cut, whole.slice(0, whole.length - 40));
    const r = await runBin(['read', cut]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`asyncai-log: ${cut}:12: the last line is cut off (an interrupted write); the session is partial\n`);
    // The cut reply is gone: pi continues from the prompt before it.
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'user', text: 'Read notes.txt instead.' });
  });

  test('--tree of a pi session piped in names it after its header', async () => {
    const r = await runBin(['read', '--tree', '-'], { input: readFileSync(BRANCHED) });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((b) => [b.session_id, b.leaf])).toEqual([[ID, 'e59c5647'], [ID, 'b7e0c2a2']]);
  });
});

describe('read of a pi session by id', () => {
  /** A HOME whose pi agent dir holds one session the bin wrote: the env and its id. */
  async function written(extra: Record<string, string> = {}): Promise<{ env: Record<string, string>; id: string }> {
    const env = cleanEnv(extra);
    const w = await runBin(['--session-format', 'pi', '--cwd', env.HOME!], { env, input: '{"type":"user","text":"hi pi"}\n{"type":"assistant","text":"hello"}\n' });
    expect(w.code, w.stderr).toBe(0);
    return { env, id: sessionOf(w).session_id };
  }

  test('its whole id and a prefix of 8 characters find it under ~/.pi/agent', async () => {
    const { env, id } = await written();
    for (const value of [id, id.slice(0, 8)]) {
      const r = await runBin(['read', value], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(lines(r.stdout).map((e) => e.text)).toEqual(['hi pi', 'hello']);
    }
    const usage = await runBin(['read', '--usage', id.slice(0, 12)], { env });
    expect(lines(usage.stdout)[0]).toMatchObject({ session_id: id, responses: 1 });
  });

  test('$PI_CODING_AGENT_SESSION_DIR is looked in', async () => {
    const { env, id } = await written({ PI_CODING_AGENT_SESSION_DIR: join(cleanEnv().HOME!, 'pi-sessions') });
    const r = await runBin(['read', id], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(lines(r.stdout).map((e) => e.text)).toEqual(['hi pi', 'hello']);
  });
});
