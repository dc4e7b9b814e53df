// The README tells the truth about what it copies: its quick-start example is the fixture the quick start
// runs, its table of contents names every section, and the Install section has the command. It stays short
// (the manual is in docs/), and no link of the README or the manual points at a missing file or heading.
import { expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FIXTURES, ROOT } from '../support/run.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** GitHub's anchor for a heading. */
const anchor = (title: string) => title.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');

test("the README's copy of the quick-start example is fixtures/events/quickstart.ndjson", () => {
  const copy = /Example \(`fixtures\/events\/quickstart\.ndjson`\):\n\n```json\n([\s\S]*?)```/.exec(README);
  expect(copy).not.toBeNull();
  expect(copy![1]).toBe(readFileSync(join(FIXTURES, 'events', 'quickstart.ndjson'), 'utf8'));
  expect(README).toContain('npx asyncai-log --cwd . < fixtures/events/quickstart.ndjson');
});

test('the table of contents links every section, and only sections', () => {
  const headings = [...README.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!).filter((title) => title !== 'Contents');
  const toc = README.slice(README.indexOf('## Contents'), README.indexOf('## Quick start'));
  const links = [...toc.matchAll(/\[(.+)\]\(#([^)]+)\)/g)].map((m) => [m[1], m[2]]);
  expect(links).toEqual(headings.map((title) => [title, anchor(title)]));
});

test('the Install section gives the command that puts asyncai-log on PATH', () => {
  const install = README.slice(README.indexOf('## Install'), README.indexOf('## The session line'));
  expect(install).toContain('npm install -g .');
  expect(install).toContain('npm install -g ./asyncai-log-<version>.tgz');
});

/** README.md and every page of the manual, as paths from the repository root. */
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Markdown text without its fenced code blocks and code spans, where brackets are not links. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives the headings of a page (a repeated heading gets -1, -2, ...). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchor(title!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

test('every relative link of the README and docs/ names an existing file, and an existing heading after #', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto: ...: not a file of this repository
      checked++;
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(file)) broken.push(`${page}: ${target} (no file ${relative(ROOT, file)})`);
      else if (hash !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(hash)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(PAGES.length);
});

test('the link check catches a missing file and a missing heading', () => {
  expect(anchorsOf('# Title\n\n## Keeping up: `--watch`\n\n```sh\n# not a heading\n```\n## Keeping up: `--watch`\n'))
    .toEqual(new Set(['title', 'keeping-up---watch', 'keeping-up---watch-1']));
  expect([...prose('[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])).toEqual(['b.md']);
});

test('the README is at most 350 lines: the details are in docs/', () => {
  expect(README.split('\n').length - 1).toBeLessThanOrEqual(350);
});

test('every page of the manual opens with its title, a one-line summary and a link back to the README', () => {
  // docs/performance.md is written by npm run bench (bench/run.mjs), not by hand.
  for (const page of PAGES.filter((page) => page.startsWith('docs/') && page !== 'docs/performance.md')) {
    const [title, blank, ...rest] = readFileSync(join(ROOT, page), 'utf8').split('\n');
    expect(title, page).toMatch(/^# \S/);
    expect(blank, page).toBe('');
    expect(rest.slice(0, 3).join('\n'), page).toContain('[README](../README.md)');
  }
});
