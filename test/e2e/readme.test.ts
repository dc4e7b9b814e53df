// The README tells the truth about what it copies: its quick-start example is the fixture the quick start
// runs, its table of contents names every section, and the Install section has the command.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
