// Sub-agents in converted trees: Claude Code's subagent sidecar files and Codex's sub-agent rollouts are
// parts of their parent session, skipped by default (the parent holds the task and the report), and
// converted as sessions of their own with --subagents.
import { describe, expect, test } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../support/run.js';
import { convert, lineOf, makeTree, records, statuses } from './support.js';

const PARENT = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000002';
const SIDECAR = `claude/${PARENT}/subagents/agent-ad72febf83b39b433.jsonl`;
const DAY = 'codex/2026/11/29';
const CODEX_PARENT = `${DAY}/rollout-2026-11-29T22-26-37-01a2296a-d880-7e50-8f01-5ef50999bfe9.jsonl`;
const CODEX_CHILD = `${DAY}/rollout-2026-11-29T22-26-37-01a2296a-d8f2-7930-9399-65590609a217.jsonl`;

function claudeTree() {
  const tree = makeTree();
  cpSync(join(FIXTURES, 'claude-code-cli', 'subagent', `${PARENT}.jsonl`), join(tree.dir, 'claude', `${PARENT}.jsonl`));
  cpSync(join(FIXTURES, 'claude-code-cli', 'subagent', PARENT), join(tree.dir, 'claude', PARENT), { recursive: true });
  return tree;
}

function codexTree() {
  const tree = makeTree();
  cpSync(join(FIXTURES, 'convert', 'codex-sessions'), join(tree.dir, 'codex'), { recursive: true });
  return tree;
}

describe('convert: Claude Code subagent sidecars', () => {
  test('a sidecar is skipped as a subagent and its parent session is converted', async () => {
    const tree = claudeTree();
    const r = await convert(tree, ['claude']);
    expect(r.code).toBe(0);
    expect(statuses(r)).toEqual([
      [SIDECAR, 'skipped', 'subagent'],
      [`claude/${PARENT}.jsonl`, 'converted', 'new'],
    ]);
    expect(lineOf(r, `claude/${PARENT}.jsonl`).input_format).toBe('claude-transcript');
  });

  test("the converted parent holds the Agent call and the subagent's report", async () => {
    const tree = claudeTree();
    const r = await convert(tree, ['claude']);
    const recs = records(lineOf(r, `claude/${PARENT}.jsonl`).harnesses![0]!.session_file);
    const blocks = recs.flatMap((x) => (Array.isArray(x.message?.content) ? x.message.content : []));
    expect(blocks.some((b: any) => b.type === 'tool_use' && b.name === 'Agent')).toBe(true);
    expect(blocks.some((b: any) => b.type === 'tool_result' && JSON.stringify(b.content).length > 0)).toBe(true);
  });

  test('--subagents converts the sidecar as a session of its own', async () => {
    const tree = claudeTree();
    const r = await convert(tree, ['claude', '--subagents']);
    expect(statuses(r)).toEqual([
      [SIDECAR, 'converted', 'new'],
      [`claude/${PARENT}.jsonl`, 'converted', 'new'],
    ]);
  });
});

describe('convert: Codex sub-agent rollouts', () => {
  test('a sub-agent thread is skipped and the thread that spawned it is converted', async () => {
    const tree = codexTree();
    const r = await convert(tree, ['codex']);
    expect(r.code).toBe(0);
    expect(statuses(r)).toEqual([
      [CODEX_PARENT, 'converted', 'new'],
      [CODEX_CHILD, 'skipped', 'subagent'],
    ]);
  });

  test("the converted parent holds the sub-agent's task and the report its wait returned", async () => {
    const tree = codexTree();
    const r = await convert(tree, ['codex']);
    const recs = records(lineOf(r, CODEX_PARENT).harnesses![0]!.session_file);
    const blocks = recs.flatMap((x) => (Array.isArray(x.message?.content) ? x.message.content : []));
    const spawn = blocks.find((b: any) => b.type === 'tool_use' && String(b.name).endsWith('spawn_agent'));
    expect(spawn.input).toEqual({ message: 'COUNT THE FILES please' });
    const results = blocks.filter((b: any) => b.type === 'tool_result').map((b: any) => JSON.stringify(b.content));
    expect(results.some((text: string) => text.includes('child says: 3 files'))).toBe(true);
  });

  test('--subagents converts the sub-agent thread as a session of its own', async () => {
    const tree = codexTree();
    const r = await convert(tree, ['codex', '--subagents']);
    expect(statuses(r)).toEqual([
      [CODEX_PARENT, 'converted', 'new'],
      [CODEX_CHILD, 'converted', 'new'],
    ]);
    const texts = records(lineOf(r, CODEX_CHILD).harnesses![0]!.session_file).map((x) => JSON.stringify(x.message?.content ?? ''));
    expect(texts.some((t) => t.includes('child says: 3 files'))).toBe(true);
  });
});
