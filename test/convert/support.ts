// Helpers for the convert tests: a temp tree of logs in every input format (copied from the fixtures at test
// time, plus a corrupt file, an empty one, junk and an optional generated huge one), a runner for
// `asyncai-log convert`, and readers of its NDJSON report, its manifest and the sessions it wrote.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIXTURES, runBin, tempDir, type RunResult } from '../support/run.js';

export interface Tree {
  /** The temp directory the bin runs in (also the project directory of logs that name none). */
  dir: string;
  /** The session root (`--session-dir claude-code-cli=<root>`). */
  root: string;
}

/** What each file of the standard tree is, in the order a walk lists them (relative to the run directory). */
export const TREE_FILES = {
  rolloutActions: 'tree/codex/2026/11/29/rollout-actions.jsonl',
  rolloutCorrupt: 'tree/codex/2026/11/29/rollout-corrupt.jsonl',
  rolloutParallel: 'tree/codex/2026/11/29/rollout-parallel.jsonl',
  empty: 'tree/empty.ndjson',
  events: 'tree/events.ndjson',
  execJson: 'tree/exec.jsonl',
  junk: 'tree/junk.json',
  streamJson: 'tree/stream.jsonl',
} as const;

function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

/**
 * A temp tree with one log per input format, a rollout with a corrupt line and a torn last line, an empty
 * file, a JSON file that is no log, and a text file a walk does not take.
 */
export function makeTree(): Tree {
  const dir = tempDir('asyncai-log-convert-');
  const at = (rel: string) => join(dir, rel);
  copy(join(FIXTURES, 'codex-rollout', 'actions.jsonl'), at(TREE_FILES.rolloutActions));
  copy(join(FIXTURES, 'codex-rollout', 'parallel.jsonl'), at(TREE_FILES.rolloutParallel));
  const resumed = readFileSync(join(FIXTURES, 'codex-rollout', 'resumed.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
  // A garbage line in the middle and a last line cut short, as a crashed writer leaves it.
  const corrupt = [...resumed.slice(0, 8), '{"timestamp": "2026-11-29T2', ...resumed.slice(8, -1), resumed.at(-1)!.slice(0, 40)];
  writeFileSync(at(TREE_FILES.rolloutCorrupt), corrupt.join('\n'));
  writeFileSync(at(TREE_FILES.empty), '');
  copy(join(FIXTURES, 'events', 'quickstart.ndjson'), at(TREE_FILES.events));
  copy(join(FIXTURES, 'codex-exec-json', 'tool.jsonl'), at(TREE_FILES.execJson));
  writeFileSync(at(TREE_FILES.junk), '{"name":"some-package","version":"1.0.0"}\n');
  copy(join(FIXTURES, 'claude-stream-json', 'input-tools.jsonl'), at(TREE_FILES.streamJson));
  writeFileSync(at('tree/notes.txt'), 'not a log\n');
  return { dir, root: join(dir, 'sessions') };
}

/**
 * Write a generic-event log of about `megabytes` MB: user turns, tool calls with 10 kB results, replies,
 * every event with its own timestamp.
 */
export function writeHugeLog(path: string, megabytes: number): void {
  const lines: string[] = [];
  let bytes = 0;
  let n = 0;
  const filler = 'lorem ipsum dolor sit amet, café 日本語 \\ "quoted" '.repeat(200);
  while (bytes < megabytes * 1_000_000) {
    const t = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
    const batch = [
      { type: 'user', text: `Step ${n}: read part ${n}.`, timestamp: t },
      { type: 'tool_call', id: `toolu_${n}`, name: 'Bash', arguments: { command: `cat part-${n}.txt` }, timestamp: t },
      { type: 'tool_result', id: `toolu_${n}`, content: filler, timestamp: t },
      { type: 'assistant', text: `Part ${n} read.`, usage: { input_tokens: 100, output_tokens: 5 }, timestamp: t },
    ].map((event) => JSON.stringify(event));
    for (const line of batch) bytes += line.length + 1;
    lines.push(...batch);
    n += 1;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${lines.join('\n')}\n`);
}

export interface ReportLine {
  source: string;
  status: string;
  reason?: string;
  input_format?: string;
  cwd?: string;
  harnesses?: { format: string; session_id: string; session_file: string; unchanged?: boolean; previous_session_id?: string }[];
  records: number;
  events: number;
  warnings: number;
  error?: string;
}

/** Run `asyncai-log convert` in the tree's directory, writing to its root. */
export function convert(tree: Tree, args: string[], options: { env?: Record<string, string> } = {}): Promise<RunResult> {
  return runBin(['convert', '--session-dir', `claude-code-cli=${tree.root}`, ...args], { cwd: tree.dir, ...(options.env ? { env: options.env } : {}) });
}

/** The report lines of a run. */
export function report(result: RunResult): ReportLine[] {
  return result.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as ReportLine);
}

/** `[source, status, reason]` per line: the shape most tests compare. */
export function statuses(result: RunResult): [string, string, string | undefined][] {
  return report(result).map((line) => [line.source, line.status, line.reason]);
}

/** The report line of one source. */
export function lineOf(result: RunResult, source: string): ReportLine {
  const line = report(result).find((l) => l.source === source);
  if (!line) throw new Error(`no report line for ${source}: ${result.stdout}${result.stderr}`);
  return line;
}

/** The manifest run files under a root, by name. */
export function manifestFiles(root: string): string[] {
  try {
    return readdirSync(join(root, 'asyncai-log-convert')).sort().map((name) => join(root, 'asyncai-log-convert', name));
  } catch {
    return [];
  }
}

/** Every manifest entry under a root, in file and line order. */
export function manifestEntries(root: string): any[] {
  return manifestFiles(root).flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)));
}

/** The records of a session file. */
export function records(file: string): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** Every file under a directory (relative paths, sorted); an absent directory has none. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = rel === '' ? entry.name : join(rel, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out.sort();
}
