// Helpers for the input adapter tests: map literal lines or a fixture file through an adapter, and read
// the golden files the capture scripts write (scripts/capture-*-fixtures.mjs). Events whose timestamp is
// the injected default are compared without it: only timestamps taken from the input are golden.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GenericEvent } from '../../lib/events.js';
import { findInputFormat } from '../../lib/agents/input-formats.js';
import type { InputAdapter } from '../../lib/input/types.js';
import { FIXTURES } from '../support/run.js';

export const DEFAULT_NOW = '2000-01-01T00:00:00.000Z';

export interface Mapped {
  events: GenericEvent[];
  warnings: string[];
  adapter: InputAdapter;
}

/** Map parsed lines (values) through a fresh adapter of `format`, then end it. */
export function mapValues(format: string, values: unknown[]): Mapped {
  const adapter = findInputFormat(format)!.create();
  const warnings: string[] = [];
  const events: GenericEvent[] = [];
  values.forEach((value, index) => {
    events.push(...adapter.map(value, DEFAULT_NOW, (m) => warnings.push(`line ${index + 1}: ${m}`)));
  });
  events.push(...adapter.end(DEFAULT_NOW, (m) => warnings.push(`end: ${m}`)));
  return { events, warnings, adapter };
}

/**
 * The values of a fixture file with their line numbers: one a line, or (a `.json` file, pretty-printed as
 * `opencode export` and legacy Gemini chats are) the whole file as one value at line 1.
 */
function fixtureLines(file: string): [string, number][] {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? [[text, 0]] : text.split('\n').map((line, index) => [line, index]);
}

/** Map a fixture file; rejected lines are recorded as warnings, as the capture script does. */
export function mapFixtureFile(format: string, file: string): { facts: object; warnings: string[]; events: unknown[] } {
  const adapter = findInputFormat(format)!.create();
  const warnings: string[] = [];
  const events: GenericEvent[] = [];
  fixtureLines(file).forEach(([line, index]) => {
    if (line.trim() === '') return;
    const warn = (m: string) => warnings.push(`line ${index + 1}: ${m}`);
    try {
      events.push(...adapter.map(JSON.parse(line), DEFAULT_NOW, warn));
    } catch (error) {
      warn(`rejected: ${(error as Error).message}`);
    }
  });
  events.push(...adapter.end(DEFAULT_NOW, (m) => warnings.push(`end: ${m}`)));
  return {
    facts: adapter.facts(),
    warnings,
    events: events.map((e) => {
      const { timestamp, ...rest } = e;
      return timestamp === DEFAULT_NOW ? rest : e;
    }),
  };
}

/** The fixtures of one folder that have a golden file: [name, input path, golden]. */
export function goldenCases(folder: string, prefix = ''): [string, string, { facts: object; warnings: string[]; events: unknown[] }][] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.events.json'))
    .map((f) => {
      const name = f.replace(/\.events\.json$/, '');
      const lines = join(dir, `${name}.jsonl`);
      return [name, existsSync(lines) ? lines : join(dir, `${name}.json`), JSON.parse(readFileSync(join(dir, f), 'utf8'))];
    });
}

/** The lines of a fixture as parsed values. */
export function fixtureValues(folder: string, name: string): unknown[] {
  return readFileSync(join(FIXTURES, folder, `${name}.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/** All blocks of every message of a Messages API request body, with their role. */
export function blocksOf(body: any): { role: string; block: any }[] {
  return (body.messages as any[]).flatMap((m) => (typeof m.content === 'string'
    ? [{ role: m.role, block: { type: 'text', text: m.content } }]
    : m.content.map((block: any) => ({ role: m.role, block }))));
}

/** The text of a tool_result block (string content or text parts). */
export function resultText(block: any): string {
  return typeof block.content === 'string' ? block.content : block.content.filter((p: any) => p.type === 'text').map((p: any) => p.text).join('\n');
}
