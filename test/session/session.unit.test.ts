import { describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenericEvent } from '../../lib/events.js';
import { claudeCodeCli } from '../../lib/agents/claude-code-cli/harness.js';
import { encodeProjectDir } from '../../lib/agents/claude-code-cli/project-dir.js';
import type { SessionHarness } from '../../lib/session/types.js';
import { AppendFile } from '../../lib/session/append-file.js';
import { SessionLogger, sessionLine } from '../../lib/session/logger.js';
import { FidelityAccount } from '../../lib/session/fidelity.js';
import { tempDir } from '../support/run.js';

const T = '2026-11-29T10:00:00.000Z';

class MemoryHarness implements SessionHarness {
  readonly sessionFile: string;
  readonly resumeCommand = 'none';
  readonly cwd = '/p';
  readonly fidelity = new FidelityAccount('memory');
  queued: string[] = [];
  written: string[] = [];
  flushes = 0;
  failOnFlush = false;
  constructor(readonly format: string, readonly sessionId: string) {
    this.sessionFile = `/mem/${sessionId}`;
  }
  add(event: GenericEvent): void {
    this.queued.push(event.type);
  }
  flush(): void {
    this.flushes += 1;
    if (this.failOnFlush) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    this.written.push(...this.queued);
    this.queued = [];
  }
  finish(): void {
    this.flush();
  }
  abandon(): void {
    this.queued = [];
  }
}

describe('SessionLogger', () => {
  test('every event reaches every harness, in order', () => {
    const a = new MemoryHarness('a', '1');
    const b = new MemoryHarness('b', '2');
    const logger = new SessionLogger([a, b], () => {});
    logger.write({ type: 'user', text: 'x', timestamp: T }, 'stdin:1');
    logger.write({ type: 'assistant', text: 'y', timestamp: T }, 'stdin:2');
    logger.flush();
    expect(a.written).toEqual(['user', 'assistant']);
    expect(b.written).toEqual(['user', 'assistant']);
  });

  test('a harness that fails to write is reported once and dropped while the others go on', () => {
    const a = new MemoryHarness('a', '1');
    const b = new MemoryHarness('b', '2');
    b.failOnFlush = true;
    const reports: string[] = [];
    const logger = new SessionLogger([a, b], (m) => reports.push(m));
    logger.write({ type: 'user', text: 'x', timestamp: T }, 'stdin:1');
    logger.flush();
    logger.write({ type: 'user', text: 'y', timestamp: T }, 'stdin:2');
    logger.flush();
    logger.finish();
    expect(a.written).toEqual(['user', 'user']);
    expect(b.flushes).toBe(1);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^b: cannot write \/mem\/2: ENOSPC/);
    expect(logger.failed).toBe(true);
  });

  test('the session line has the documented shape and lists every harness', () => {
    const line = JSON.parse(sessionLine([new MemoryHarness('a', '1'), new MemoryHarness('b', '2')], 'bot'));
    expect(line).toEqual({ work_name: 'session', result: {
      session_id: '1', session_file: '/mem/1', harness: 'a', agent_name: 'bot',
      harnesses: [{ format: 'a', session_id: '1', session_file: '/mem/1' }, { format: 'b', session_id: '2', session_file: '/mem/2' }],
    } });
  });
});

describe('AppendFile', () => {
  test('a collision with an existing file draws a new name and leaves that file byte-for-byte untouched', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'taken.jsonl'), 'precious\n', { mode: 0o644 });
    const names = ['taken.jsonl', 'free.jsonl'];
    const { file, attempt } = AppendFile.createExclusive(dir, () => names.shift()!);
    file.write('mine\n');
    file.close();
    expect(attempt).toBe('free.jsonl');
    expect(readFileSync(join(dir, 'taken.jsonl'), 'utf8')).toBe('precious\n');
    expect(statSync(join(dir, 'taken.jsonl')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(dir, 'free.jsonl'), 'utf8')).toBe('mine\n');
  });

  test('a symlink planted at the target path is neither followed nor overwritten', () => {
    const dir = tempDir();
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'keep');
    symlinkSync(victim, join(dir, 'trap.jsonl'));
    const names = ['trap.jsonl', 'ok.jsonl'];
    const { attempt, file } = AppendFile.createExclusive(dir, () => names.shift()!);
    file.write('x\n');
    file.close();
    expect(attempt).toBe('ok.jsonl');
    expect(readFileSync(victim, 'utf8')).toBe('keep');
  });

  test('the file is created with mode 0600 whatever the umask', () => {
    const old = process.umask(0);
    try {
      const { file } = AppendFile.createExclusive(tempDir(), () => 'f.jsonl');
      expect(statSync(file.path).mode & 0o777).toBe(0o600);
      file.close();
    } finally {
      process.umask(old);
    }
  });

  test('bytes appended by another process are noticed and returned once', () => {
    const { file } = AppendFile.createExclusive(tempDir(), () => 'f.jsonl');
    file.write('own\n');
    expect(file.foreignBytes()).toBeUndefined();
    appendFileSync(file.path, '{"uuid":"x"}');
    expect(file.foreignBytes()).toEqual({ text: '{"uuid":"x"}', needsNewline: true });
    expect(file.foreignBytes()).toBeUndefined();
    file.close();
  });

  test('bytes another process appended just before one of our writes are returned once, and ours are not', () => {
    const { file } = AppendFile.createExclusive(tempDir(), () => 'f.jsonl');
    file.write('own 1\n');
    // The other process appends after our last look and before our next write: its bytes land before ours.
    appendFileSync(file.path, 'foreign, much longer than our next write\n');
    file.write('own 2\n');
    appendFileSync(file.path, 'foreign after\n');
    expect(file.foreignBytes()).toEqual({ text: 'foreign, much longer than our next write\nforeign after\n', needsNewline: false });
    expect(file.foreignBytes()).toBeUndefined();
    file.write('own 3\n');
    expect(file.foreignBytes()).toBeUndefined();
    appendFileSync(file.path, 'x');
    expect(file.foreignBytes()).toEqual({ text: 'x', needsNewline: true });
    file.close();
  });

  test('removeIfHolding removes the file only while it holds exactly what this writer wrote first', () => {
    const { file } = AppendFile.createExclusive(tempDir(), () => 'f.jsonl');
    file.write('head\n');
    expect(file.removeIfHolding(0)).toBe(false);
    expect(existsSync(file.path)).toBe(true);
    expect(file.removeIfHolding(5)).toBe(true);
    expect(existsSync(file.path)).toBe(false);
    file.close();
  });

  test('removeIfHolding leaves a file another process appended to, a file put in its place, and a closed one', () => {
    const appended = AppendFile.createExclusive(tempDir(), () => 'f.jsonl').file;
    appendFileSync(appended.path, 'theirs\n');
    expect(appended.removeIfHolding(0)).toBe(false);
    expect(readFileSync(appended.path, 'utf8')).toBe('theirs\n');
    appended.close();
    const replaced = AppendFile.createExclusive(tempDir(), () => 'f.jsonl').file;
    unlinkSync(replaced.path);
    writeFileSync(replaced.path, '');
    expect(replaced.removeIfHolding(0)).toBe(false);
    expect(existsSync(replaced.path)).toBe(true);
    replaced.close();
    const closed = AppendFile.createExclusive(tempDir(), () => 'f.jsonl').file;
    closed.close();
    expect(closed.removeIfHolding(0)).toBe(false);
    expect(existsSync(closed.path)).toBe(true);
  });
});

describe('Claude harness on disk', () => {
  test('the transcript goes to <root>/projects/<encoded cwd>/<uuid>.jsonl with mode 0600', () => {
    const root = tempDir();
    const h = claudeCodeCli.create({ root, cwd: '/some/project', cwdFromInput: true, warn: () => {} });
    h.add({ type: 'user', text: 'hi', timestamp: T }, 'stdin:1');
    h.finish();
    expect(h.sessionFile).toBe(join(root, 'projects', '-some-project', `${h.sessionId}.jsonl`));
    expect(h.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(statSync(h.sessionFile).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(h.sessionFile, 'utf8'));
    expect(record).toMatchObject({ type: 'user', sessionId: h.sessionId, cwd: '/some/project' });
    expect(record.gitBranch).toBeUndefined();
  });

  test('records of one flush reach the file in one piece, nothing before flush', () => {
    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: () => {} });
    h.add({ type: 'user', text: 'a', timestamp: T }, 'stdin:1');
    h.add({ type: 'assistant', text: 'b', timestamp: T }, 'stdin:2');
    expect(readFileSync(h.sessionFile, 'utf8')).toBe('');
    h.flush();
    expect(readFileSync(h.sessionFile, 'utf8').split('\n')).toHaveLength(3);
    h.finish();
  });

  test('a second session in the same project gets its own file and leaves the first untouched', () => {
    const root = tempDir();
    const first = claudeCodeCli.create({ root, cwd: '/p', cwdFromInput: true, warn: () => {} });
    first.add({ type: 'user', text: 'one', timestamp: T }, 'stdin:1');
    first.finish();
    const before = readFileSync(first.sessionFile);
    const second = claudeCodeCli.create({ root, cwd: '/p', cwdFromInput: true, warn: () => {} });
    second.add({ type: 'user', text: 'two', timestamp: T }, 'stdin:1');
    second.finish();
    expect(second.sessionFile).not.toBe(first.sessionFile);
    expect(readFileSync(first.sessionFile).equals(before)).toBe(true);
    expect(readdirSync(join(root, 'projects', encodeProjectDir('/p')))).toHaveLength(2);
  });

  test('after a foreign append the next record chains onto the foreign record and a checkpoint follows', () => {
    const warnings: string[] = [];
    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: (m) => warnings.push(m) });
    h.add({ type: 'user', text: 'a', timestamp: T }, 'stdin:1');
    h.flush();
    appendFileSync(h.sessionFile, '{"type":"assistant","uuid":"foreign-1","parentUuid":"x"}\n{"type":"last-prompt","leafUuid":"foreign-1"}');
    h.add({ type: 'user', text: 'b', timestamp: T }, 'stdin:2');
    h.flush();
    h.add({ type: 'user', text: 'c', timestamp: T }, 'stdin:3');
    h.finish();
    const lines = readFileSync(h.sessionFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const own = lines.filter((r) => r.type === 'user');
    expect(own[1].parentUuid).toBe('foreign-1');
    expect(own[2].parentUuid).toBe(own[1].uuid);
    expect(lines.filter((r) => r.type === 'last-prompt').map((r) => r.leafUuid)).toEqual(['foreign-1', own[1].uuid, own[2].uuid]);
    expect(warnings.filter((w) => w.includes('session.foreign_append'))).toHaveLength(1);
  });

  test('a resume that appends between our look and our write still gets our records copied after its own', () => {
    // A concurrent `claude --resume` loaded the file when it held "a" and appends its reply just before our
    // flush of "b": without noticing that its bytes sit before ours, "b" would be off the next resume's branch.
    const warnings: string[] = [];
    const h = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: (m) => warnings.push(m) });
    h.add({ type: 'user', text: 'a', timestamp: T }, 'stdin:1');
    h.flush();
    const a = JSON.parse(readFileSync(h.sessionFile, 'utf8')).uuid as string;
    h.add({ type: 'user', text: 'b', timestamp: T }, 'stdin:2');
    appendFileSync(h.sessionFile, `{"type":"assistant","uuid":"foreign-1","parentUuid":"${a}","message":{"role":"assistant","content":"${'x'.repeat(4000)}"}}\n`
      + '{"type":"last-prompt","leafUuid":"foreign-1"}\n');
    h.flush();
    h.add({ type: 'user', text: 'c', timestamp: T }, 'stdin:3');
    h.finish();
    const lines = readFileSync(h.sessionFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const byUuid = new Map(lines.filter((r) => typeof r.uuid === 'string').map((r) => [r.uuid as string, r]));
    // The branch the next resume follows: from the last checkpoint's leaf back to the root.
    const chain: string[] = [];
    for (let r = byUuid.get(lines.filter((l) => l.type === 'last-prompt').at(-1).leafUuid); r; r = byUuid.get(r.parentUuid)) {
      chain.unshift(typeof r.message?.content === 'string' && r.type === 'user' ? r.message.content : r.uuid);
    }
    expect(chain).toEqual(['a', 'foreign-1', 'b', 'c']);
    expect(warnings.filter((w) => w.includes('session.concurrent_fork'))).toHaveLength(1);
  });

  test('the git branch of a cwd given on the command line is read from .git/HEAD', () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.git'));
    writeFileSync(join(cwd, '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
    mkdirSync(join(cwd, 'sub'));
    const h = claudeCodeCli.create({ root: tempDir(), cwd: join(cwd, 'sub'), warn: () => {} });
    h.add({ type: 'user', text: 'a', timestamp: T }, 'stdin:1');
    h.finish();
    expect(JSON.parse(readFileSync(h.sessionFile, 'utf8')).gitBranch).toBe('feature/x');
  });
});
