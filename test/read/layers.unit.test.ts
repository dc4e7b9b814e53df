// The layers, over the import graph: every file under lib/ and bin/ imports only from layers below its own
// (or its own folder, or a sibling folder of its layer that is not another agent), the bin only through the
// entry modules, and no cycle of files or of folders, `import type` included (a type cycle still couples them).
// docs/architecture.md ("The layers") holds the same table.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layer table, top to bottom: a file's layer is that of the first pattern its path (from the repository
 * root) matches. A higher layer may import a lower one; within a layer only its own folder, or a sibling
 * folder when neither is an agent folder.
 */
const LAYERS: [number, string, RegExp][] = [
  [7, 'bin', /^bin\//],
  [6, 'public entry point', /^lib\/index\.ts$/],
  [5, 'commands', /^lib\/(filter|convert|read|sessions)\//],
  [4, 'agents registry', /^lib\/agents\/[^/]+\.ts$/],
  [3, 'agent folders', /^lib\/agents\/[^/]+\//],
  [2, 'session, input, monitor, gemini-content, anthropic-content, opencode-store', /^lib\/(session|input|monitor|gemini-content|anthropic-content|opencode-store)\//],
  [1, 'json, lines, events, usage, util', /^lib\/((json|lines|util|events)\/|events\.ts$|usage\.ts$)/],
];

/** What the bin may import from lib/: the public API and each command's entry module. */
const ENTRY_POINTS = ['lib/index.ts', 'lib/filter/index.ts', 'lib/read/index.ts', 'lib/convert/index.ts', 'lib/sessions/index.ts'];

function layerOf(file: string): number {
  const found = LAYERS.find(([, , pattern]) => pattern.test(file));
  if (found === undefined) throw new Error(`${file} is in no layer: add its folder to the table`);
  return found[0];
}

/** The folder a file counts in for folder cycles: an agent folder, a lib/ folder, bin/, or a lone lib/ file. */
function folderOf(file: string): string {
  const agent = /^lib\/agents\/[^/]+\//.exec(file);
  if (agent !== null) return agent[0].slice(0, -1);
  if (file.startsWith('bin/')) return 'bin';
  const top = /^lib\/[^/]+\//.exec(file);
  return top !== null ? top[0].slice(0, -1) : file;
}

const isAgentFolder = (folder: string): boolean => folder.startsWith('lib/agents/');

/** Every .ts file under lib/ and bin/, from the repository root. */
function sourceFiles(): string[] {
  return ['lib', 'bin'].flatMap((dir) => readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))));
}

/**
 * The relative specifiers a file imports: `import`/`export ... from` (type-only too), bare `import '...'`,
 * dynamic `import('...')` and worker files (`new URL('...', import.meta.url)`). Comment lines are skipped.
 */
function specifiers(text: string): string[] {
  const code = text.split('\n').filter((line) => !/^\s*(\/\/|\/?\*)/.test(line)).join('\n');
  const patterns = [
    /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*'([^']+)'/g,
    /(?:^|\n)\s*import\s*'([^']+)'/g,
    /\bimport\(\s*'([^']+)'\s*\)/g,
    /\bnew URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1]!)).filter((s) => s.startsWith('.'));
}

/** The import graph: each file and the files (from the repository root) its relative specifiers resolve to. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const targets = specifiers(readFileSync(join(ROOT, file), 'utf8')).flatMap((spec) => {
      const path = relative(ROOT, resolve(ROOT, dirname(file), spec));
      // Only files of the graph count (a `.js` import of a .ts file; a worker URL of the built dist/ is not one).
      const ts = path.replace(/\.js$/, '.ts');
      return existsSync(join(ROOT, ts)) && /^(lib|bin)\//.test(ts) ? [ts] : [];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one node (or a node importing itself): each a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('the layers', () => {
  const graph = importGraph();

  test('the graph holds every file of lib/ and bin/, each in a layer of the table', () => {
    expect(graph.size).toBeGreaterThan(120);
    expect([...graph.keys()].filter((file) => !LAYERS.some(([, , pattern]) => pattern.test(file)))).toEqual([]);
    // The parser sees each kind of import: a re-export, type-only, one over several lines, a worker URL.
    expect(graph.get('lib/index.ts')).toContain('lib/events.ts');
    expect(graph.get('lib/filter/types.ts')).toContain('lib/session/types.ts');
    expect(graph.get('bin/commands/filter.ts')).toContain('lib/filter/index.ts');
    expect(graph.get('lib/convert/pool.ts')).toContain('lib/convert/worker.ts');
  });

  test('no file imports from a layer above its own, nor one agent folder from another', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [from, to] = [layerOf(file), layerOf(target)];
        const [fromFolder, toFolder] = [folderOf(file), folderOf(target)];
        if (to > from) wrong.push(`${file} -> ${target} (up a layer)`);
        else if (to === from && fromFolder !== toFolder && (isAgentFolder(fromFolder) || isAgentFolder(toFolder))) {
          wrong.push(`${file} -> ${target} (sideways between agent folders)`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test('the bin imports lib/ only through the entry points', () => {
    const wrong = [...graph].filter(([file]) => file.startsWith('bin/'))
      .flatMap(([file, targets]) => targets.filter((t) => t.startsWith('lib/') && !ENTRY_POINTS.includes(t)).map((t) => `${file} -> ${t}`));
    expect(wrong).toEqual([]);
  });

  test('no cycle of files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  test('no cycle of folders', () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const tos = targets.map(folderOf).filter((to) => to !== from);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...tos])]);
    }
    expect(cycles(folders)).toEqual([]);
  });
});
