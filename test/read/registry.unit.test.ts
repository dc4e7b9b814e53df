// `read` reaches transcript readers only through the agent registry (`Agent.transcripts`): what the registry
// lists is what `read` reads, and no agent folder imports another's, nor a generic layer (lib/read/, lib/filter/,
// lib/convert/, ..., bin/) an agent folder.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { AGENTS, readableFormats, readAsTranscript, TRANSCRIPT_READERS } from '../../lib/agents/index.js';

const LIB = fileURLToPath(new URL('../../lib', import.meta.url));
const AGENT_DIRS = readdirSync(join(LIB, 'agents'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

/** Every .ts file under `dir`, with the lib/ paths its relative imports resolve to. */
function importsUnder(dir: string): { file: string; imports: string[] }[] {
  const out: { file: string; imports: string[] }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/(?:^|\n)(?:import|export)[^'"]*?from '(\.[^']+)'/g)]
      .map((m) => relative(LIB, resolve(dirname(file), m[1]!)));
    out.push({ file: relative(LIB, file), imports });
  }
  return out;
}

describe('transcript readers in the registry', () => {
  test('every agent with a reader reads files of one of its own input formats', () => {
    expect(TRANSCRIPT_READERS.length).toBeGreaterThan(0);
    for (const agent of AGENTS) {
      if (agent.transcripts === undefined) continue;
      expect(agent.inputs.map((format) => format.name)).toContain(agent.transcripts.input);
    }
  });

  test('read --session-dir takes the formats of the agents whose sessions are found by id; only readers\' formats are read as transcripts', () => {
    expect(readableFormats()).toEqual(AGENTS.filter((a) => a.sessions !== undefined || a.store !== undefined).map((a) => a.harness.format));
    expect(readAsTranscript('pi-session')).toBe(true);
    expect(readableFormats()).toContain('claude-code-cli');
    expect(readAsTranscript('claude-transcript')).toBe(true);
    for (const name of ['claude-stream-json', 'codex-rollout', 'events']) expect(readAsTranscript(name)).toBe(false);
  });

  test('a Claude Code session id, or a prefix of 8 or more of its characters, is looked up under <root>/projects', () => {
    const claude = AGENTS.find((agent) => agent.harness.format === 'claude-code-cli')!.sessions!;
    expect(claude.matches('0b9a1c52-6f0e-4d1a-9a55-3c1f2a000005')).toBe(true);
    expect(claude.matches('0b9a1c52')).toBe(true);
    expect(claude.matches('0b9a1c5')).toBe(false);
    expect(claude.matches('../0b9a1c52-6f0e-4d1a-9a55-3c1f2a000005')).toBe(false);
    expect(claude.sessionsDir('/root')).toBe('/root/projects');
  });
});

describe('layers', () => {
  test('no agent folder imports another agent folder', () => {
    for (const agent of AGENT_DIRS) {
      for (const { file, imports } of importsUnder(join(LIB, 'agents', agent))) {
        const others = imports.filter((path) => AGENT_DIRS.some((other) => other !== agent && path.startsWith(join('agents', other))));
        expect({ file, others }).toEqual({ file, others: [] });
      }
    }
  });

  test('lib/read/ reaches the agents only through the registry', () => {
    for (const { file, imports } of importsUnder(join(LIB, 'read'))) {
      const direct = imports.filter((path) => AGENT_DIRS.some((agent) => path.startsWith(join('agents', agent))));
      expect({ file, direct }).toEqual({ file, direct: [] });
    }
  });

  test('the other generic layers and the bin reach the agents only through the registry too', () => {
    const layers = ['filter', 'convert', 'session', 'input', 'monitor', 'json', 'lines', 'util'].map((dir) => join(LIB, dir));
    const files = [...layers, join(LIB, '..', 'bin')].flatMap((dir) => importsUnder(dir));
    expect(files.length).toBeGreaterThan(40);
    for (const { file, imports } of files) {
      const direct = imports.filter((path) => AGENT_DIRS.some((agent) => path.startsWith(join('agents', agent))));
      expect({ file, direct }).toEqual({ file, direct: [] });
    }
  });
});
