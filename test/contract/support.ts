// Shared by the contract suite: the registered formats (from the public API) with their drivers, the bin's
// arguments for a place, the shared event fixture, and the bin run with a fixed clock and fixed first draws.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownFormats } from '../../lib/index.js';
import { BIN, FIXTURES, run, type RunResult } from '../support/run.js';
import { listTree, spawnBin, type Spawned } from '../reliability/support.js';
import type { ContractDriver, Place, SessionEntry } from './driver.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Every registered format, as the public API lists them. */
export const FORMATS: string[] = knownFormats();

/** The driver of `format`, or undefined when drivers/<format>.ts does not exist. */
export async function loadDriver(format: string): Promise<ContractDriver | undefined> {
  if (!existsSync(join(HERE, 'drivers', `${format}.ts`))) return undefined;
  const module = await import(`./drivers/${format}.ts`) as { driver?: ContractDriver };
  return module.driver;
}

/** Every format's driver; a format without one fails here, loudly, naming the file to write. */
export async function requireDriver(format: string): Promise<ContractDriver> {
  const driver = await loadDriver(format);
  if (driver === undefined || driver.format !== format) {
    throw new Error(`the registered format ${format} has no contract driver: write test/contract/drivers/${format}.ts (see test/contract/driver.ts)`);
  }
  return driver;
}

/** The bin's arguments for `format` in `place`. */
export function binArgs(format: string, place: Place): string[] {
  return ['--session-format', format, '--session-dir', `${format}=${place.root}`, '--cwd', place.cwd];
}

/** The shared generic-event fixture, one event per line. */
export const CONTRACT_EVENTS: string[] = readFileSync(join(FIXTURES, 'events', 'contract.ndjson'), 'utf8')
  .split('\n').filter((l) => l !== '').map((l) => `${l}\n`);

/** The preload that stops the clock and fixes the first random draws (see fixed-draws.mjs). */
const FIXED_DRAWS = join(HERE, 'fixed-draws.mjs');

/** A fixed "now" for every run of a test file: the start of the current minute (so never an old session). */
export const FROZEN_NOW = Math.floor(Date.now() / 60_000) * 60_000;

/**
 * Run the bin with `args` in `place` on `input`, with the clock at FROZEN_NOW and the first few uuids and ints
 * fixed: the same place and input give the same paths, run after run. `umask`, when given, is set first.
 */
export function runBinFixed(args: string[], place: Place, input: string, umask?: string): Promise<RunResult> {
  const env = { ...place.env, ASYNCAI_LOG_TEST_NOW: String(FROZEN_NOW), ASYNCAI_LOG_TEST_DRAWS: '4' };
  const node = [process.execPath, '--import', FIXED_DRAWS, BIN, ...args];
  if (umask === undefined) return run(node[0]!, node.slice(1), { cwd: place.cwd, env, input });
  return run('/bin/sh', ['-c', `umask ${umask} && exec "$@"`, 'sh', ...node], { cwd: place.cwd, env, input });
}

/** `runBinFixed`, spawned with stdin left open (see spawnBin): for a run to be signalled while it waits. */
export function spawnBinFixed(args: string[], place: Place): Spawned {
  const env = { ...place.env, ASYNCAI_LOG_TEST_NOW: String(FROZEN_NOW), ASYNCAI_LOG_TEST_DRAWS: '4' };
  return spawnBin(args, { env, cwd: place.cwd, nodeArgs: ['--import', FIXED_DRAWS] });
}

/** The session of `format` on a run's session line. */
export function sessionEntry(result: RunResult, format: string): SessionEntry {
  const line = JSON.parse(result.stdout.split('\n')[0] ?? '');
  const entry = (line.result.harnesses as SessionEntry[]).find((h) => h.format === format);
  if (entry === undefined) throw new Error(`no ${format} session on the session line: ${result.stdout}`);
  return entry;
}

/** One generic event as an NDJSON line. */
export const ev = (o: object): string => `${JSON.stringify(o)}\n`;

/** The two events of a contract file's first run. */
export const FIRST_STREAM = ev({ type: 'user', text: 'contract first run' }) + ev({ type: 'assistant', text: 'noted' });

/** A first run of `format` at its driver's place: its session file and the writer's own entries below the root. */
export async function firstRun(format: string): Promise<{ driver: ContractDriver; place: Place; sessionFile: string; tree: string[] }> {
  const driver = await requireDriver(format);
  const place = driver.place();
  const first = await runBinFixed(binArgs(format, place), place, FIRST_STREAM);
  if (first.code !== 0) throw new Error(`the first run of ${format} failed: ${first.stderr}`);
  return { driver, place, sessionFile: sessionEntry(first, format).session_file, tree: listTree(place.root).filter((rel) => driver.owned(rel)) };
}
