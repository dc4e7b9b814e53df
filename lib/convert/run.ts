// Batch conversion (`asyncai-log convert`): list the input files, decide from the manifest which are new or
// changed, convert those inline or in worker threads, record each finished source in this run's manifest
// file, and report one NDJSON line per input in input order (so the output is the same for any job count).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError, type SessionOptions } from '../session/options.js';
import { checkSessionOptions } from '../agents/open-sessions.js';
import { findHarness } from '../agents/index.js';
import { findInputFormat, inputFormatNames } from '../agents/input-formats.js';
import { knownSession } from './append-lock.js';
import { syncFile } from './convert-file.js';
import { discoverInputs } from './session-ids.js';
import { expandStores } from './stores.js';
import { Manifest, manifestDirProblem, ManifestWriter, type ManifestEntry } from './manifest.js';
import { createInlineRunner, createWorkerRunner, type ConvertRunner } from './pool.js';
import { ProgressLine } from './progress.js';
import { Output, type ConvertIO } from './output.js';
import { SessionLock } from './session-lock.js';
import type { Discovered } from './discover.js';
import type { ConvertOutcome, ConvertReason, ConvertSettings, ConvertTarget, ConvertTask, SessionRef } from './types.js';
import { describeError } from '../util/fs-errors.js';

export type { ConvertIO } from './output.js';

export interface ConvertOptions extends Omit<SessionOptions, 'provenance'> {
  /** Files and directories to convert (relative to `processCwd`). */
  inputs: string[];
  /** Input format for every file, or 'auto' (per file, from its first non-blank line). */
  from: string;
  /** Files converted at once; above 1, in worker threads (default 1). */
  jobs?: number;
  /** Convert again even what the manifest says is up to date. */
  force?: boolean;
  /** Report what would be converted; write no session and no manifest. */
  dryRun?: boolean;
  /** Convert subagent transcripts as sessions of their own (default: skipped). */
  subagents?: boolean;
  /** Keep the source's token counts in converted records (default: zeroed). */
  keepUsage?: boolean;
  /** Draw a progress line on stderr. */
  progress?: boolean;
  /** Report only what was converted or failed (the passes of `--watch` after the first): no line for a skip. */
  changesOnly?: boolean;
  maxLineBytes?: number;
  /**
   * Run V8's full collection (node's `--expose-gc`, which the command's launcher gives) before the end of a file
   * read twice (a Claude Code transcript) and before a huge line of it is read again: its memory is given back
   * before the next takes its own (see docs/performance.md).
   */
  collect?: boolean;
  /** Where the sessions of a store (OpenCode's database) are copied while they are converted (default: the system's). */
  tmpdir?: string;
}

export interface ConvertSummary {
  /** 0 when every input was converted or skipped, 1 when any failed. */
  code: number;
  converted: number;
  skipped: number;
  /** The skipped inputs by reason (`unchanged`, `empty`, ...), in the order the reasons first came. */
  skippedBy: Record<string, number>;
  failed: number;
  /** Dry run: files that would be converted. */
  wouldConvert: number;
  aborted: boolean;
  /** The manifest files this run wrote. */
  manifestFiles: string[];
}

/** One input's place in the output: its outcome once known, and the file to convert if any. */
interface Slot {
  path: string;
  real?: string;
  size: number;
  task?: ConvertTask;
  /** Formats already up to date (not in the task), reported as they are. */
  fresh: SessionRef[];
  /** The manifest entries known for the task's targets (refreshed when the bytes turn out unchanged). */
  known: Map<string, ManifestEntry>;
  outcome?: ConvertOutcome;
  /** Named by its session id: its resume commands are said on stderr once converted. */
  byId?: boolean;
}

const done = (index: number, fields: Partial<ConvertOutcome>): ConvertOutcome => ({
  index, status: 'skipped', harnesses: [], records: 0, events: 0, warnings: 0, messages: [], bytes: 0, ...fields,
});

/**
 * Convert every file behind `options.inputs`. Resolves with the summary; rejects only with UsageError
 * (bad options: nothing is read or written then).
 */
export async function runConvert(options: ConvertOptions, io: ConvertIO): Promise<ConvertSummary> {
  checkSessionOptions(options);
  if (options.from !== 'auto' && !findInputFormat(options.from)) {
    throw new UsageError(`unknown input format ${JSON.stringify(options.from)} (known: auto, ${inputFormatNames().join(', ')})`);
  }
  const jobs = options.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs wants a positive integer');
  if (options.inputs.length === 0) throw new UsageError('convert wants at least one file or directory');
  const dryRun = options.dryRun ?? false;

  const out = new Output(io, options.changesOnly ?? false);
  const formats = [...new Set(options.formats)];
  const roots = formats.map((format) => ({
    format,
    root: resolve(options.processCwd, options.sessionDirs[format] ?? findHarness(format)!.defaultRoot(options.env, options.homedir)),
  }));
  // A manifest directory that is a link (or no directory) would put run files, and session locks, elsewhere.
  const problems = [...new Set(roots.map(({ root }) => manifestDirProblem(root)).filter((p) => p !== undefined))];
  if (problems.length > 0) {
    for (const problem of problems) out.diagnostic(problem);
    return { code: 1, converted: 0, skipped: 0, skippedBy: {}, failed: 0, wouldConvert: 0, aborted: false, manifestFiles: [] };
  }
  const manifests = new Map<string, Manifest>();
  for (const { root } of roots) {
    if (!manifests.has(root)) manifests.set(root, Manifest.read(root, (message) => out.diagnostic(message)));
  }
  const written = new Set<string>();
  for (const manifest of manifests.values()) for (const file of manifest.sessionFiles) written.add(file);

  // A store's sessions are copied out first (one query of the store, not one per session).
  const expanded = await expandStores(await discoverInputs(options.inputs, options), {
    env: options.env, tmpdir: options.tmpdir ?? tmpdir(), warn: (message) => out.diagnostic(message),
  });
  try {
    return await convertListed(expanded.discovered, options, io, { out, formats, roots, manifests, written, dryRun, jobs });
  } finally {
    await expanded.close();
  }
}

/** Convert what was listed (the rest of `runConvert`). */
async function convertListed(discovered: Discovered[], options: ConvertOptions, io: ConvertIO, run: {
  out: Output; formats: string[]; roots: { format: string; root: string }[]; manifests: Map<string, Manifest>;
  written: Set<string>; dryRun: boolean; jobs: number;
}): Promise<ConvertSummary> {
  const { out, formats, roots, manifests, written, dryRun, jobs } = run;
  const slots = plan(discovered, roots, manifests, written, options);
  const tasks = slots.filter((slot) => slot.task !== undefined);
  const settings: ConvertSettings = {
    from: options.from,
    processCwd: options.processCwd,
    keepUsage: options.keepUsage ?? false,
    subagents: options.subagents ?? false,
    dryRun,
    env: options.env,
    homedir: options.homedir,
    ...(options.cwd !== undefined ? { cwd: resolve(options.processCwd, options.cwd) } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
    ...(options.collect === true ? { collect: true } : {}),
    // A file waiting for another run's session lock sees the signal through it, on whichever thread it is.
    stop: new Int32Array(new SharedArrayBuffer(4)),
  };

  if (options.progress) {
    out.progress = new ProgressLine(io.stderr, { files: slots.length, bytes: tasks.reduce((sum, slot) => sum + slot.size, 0) });
  }
  const writers = new Map<string, ManifestWriter>();
  const summary: ConvertSummary = { code: 0, converted: 0, skipped: 0, skippedBy: {}, failed: 0, wouldConvert: 0, aborted: false, manifestFiles: [] };
  let emitted = 0;
  const emit = () => {
    while (emitted < slots.length && slots[emitted]!.outcome) {
      const slot = slots[emitted]!;
      const outcome = slot.outcome!;
      if (outcome.status === 'converted') summary.converted += 1;
      else if (outcome.status === 'skipped') {
        summary.skipped += 1;
        const reason = outcome.reason ?? 'other';
        summary.skippedBy[reason] = (summary.skippedBy[reason] ?? 0) + 1;
      }
      else if (outcome.status === 'failed') summary.failed += 1;
      else summary.wouldConvert += 1;
      out.report(slot.path, outcome);
      if (slot.byId && outcome.status === 'converted') {
        for (const harness of outcome.harnesses) {
          if (harness.resume !== undefined) out.diagnostic(`resume with: ${harness.resume}  (from ${outcome.cwd ?? options.processCwd})`);
        }
      }
      emitted += 1;
    }
  };
  for (const slot of slots) if (slot.outcome) out.progress?.fileDone();
  emit();

  // A finished file is made durable here, off the converting thread: its sessions are fsync'd, then its
  // manifest lines written and fsync'd, while the next files are converted. Only then is it reported.
  const settle = async (slot: Slot, outcome: ConvertOutcome, read: number): Promise<void> => {
    outcome.harnesses = [...slot.fresh, ...outcome.harnesses];
    outcome.harnesses.sort((a, b) => formats.indexOf(a.format) - formats.indexOf(b.format));
    if (!dryRun && outcome.status === 'converted') {
      try {
        await Promise.all(outcome.harnesses.filter((h) => !h.unchanged).map((h) => syncFile(h.session_file)));
      } catch (error) {
        outcome.status = 'failed';
        outcome.error = `cannot sync the session: ${describeError(error)}`;
      }
    }
    // What the converter read again under a session's lock is newer than what this run planned with.
    for (const [format, entry] of Object.entries(outcome.known ?? {})) slot.known.set(format, entry);
    if (!dryRun) {
      try {
        await record(slot, outcome, roots, writers);
        for (const lock of outcome.locks ?? []) SessionLock.release(lock);
      } catch (error) {
        outcome.status = 'failed';
        outcome.error = `the sessions were written, but the manifest could not be: ${describeError(error)}`;
        // Not recorded: the next run that takes the lock cuts the append back.
        for (const lock of outcome.locks ?? []) SessionLock.orphanPath(lock);
      }
    }
    slot.outcome = outcome;
    emit();
    out.progress?.fileDone(Math.max(0, slot.size - read));
  };
  const settling: Promise<void>[] = [];

  const stopFlag = () => Atomics.store(settings.stop!, 0, 1);
  if (io.signal?.aborted) stopFlag();
  else io.signal?.addEventListener('abort', stopFlag, { once: true });
  const runner: ConvertRunner = jobs > 1 && tasks.length > 1
    ? createWorkerRunner(Math.min(jobs, tasks.length), settings)
    : createInlineRunner(settings);
  try {
    await new Promise<void>((finished) => {
      let next = 0;
      let inFlight = 0;
      const pump = () => {
        while (inFlight < jobs && next < tasks.length && !io.signal?.aborted) {
          const slot = tasks[next]!;
          next += 1;
          inFlight += 1;
          let read = 0;
          void runner.run(slot.task!, (bytes) => {
            // Progress counts a file's bytes once, even when it is read twice (hashed, then converted).
            const counted = Math.max(0, Math.min(bytes, slot.size - read));
            read += counted;
            out.progress?.read(counted);
          }).then((outcome) => {
            inFlight -= 1;
            settling.push(settle(slot, outcome, read));
            pump();
          });
        }
        if (inFlight === 0) finished();
      };
      pump();
    });
    await Promise.all(settling);
  } finally {
    io.signal?.removeEventListener('abort', stopFlag);
    await runner.close();
    for (const writer of writers.values()) {
      await writer.close();
      if (writer.runFile !== undefined) summary.manifestFiles.push(writer.runFile);
    }
  }
  for (const slot of slots) {
    if (slot.outcome) continue;
    summary.aborted = true;
    slot.outcome = done(slot.task?.index ?? 0, { reason: 'interrupted' });
  }
  emit();
  if (out.progress) {
    out.progress.end();
    const reasons = Object.entries(summary.skippedBy).map(([reason, n]) => `${n} ${reason}`);
    const skipped = `${summary.skipped} skipped${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}`;
    const parts = [`${summary.converted} converted`, skipped, `${summary.failed} failed`];
    if (dryRun) parts.unshift(`${summary.wouldConvert} would be converted`);
    io.stderr.write(`asyncai-log: convert: ${parts.join(', ')}\n`);
  }
  summary.code = summary.failed > 0 ? 1 : 0;
  return summary;
}

/** Decide, per input, what is already known (skipped, failed at listing) and what must be read. */
function plan(
  discovered: readonly Discovered[],
  roots: { format: string; root: string }[],
  manifests: Map<string, Manifest>,
  written: Set<string>,
  options: ConvertOptions,
): Slot[] {
  const seen = new Set<string>();
  return discovered.map((item, index): Slot => {
    if (item.kind !== 'source') {
      const error = item.kind === 'error' ? item.error : 'a session store, not read';
      return { path: item.path, size: 0, fresh: [], known: new Map(), outcome: done(index, { status: 'failed', error }) };
    }
    const source = item.source;
    const slot: Slot = { path: source.path, real: source.real, size: source.size, fresh: [], known: new Map(), ...(source.byId ? { byId: true } : {}) };
    if (seen.has(source.id)) {
      slot.outcome = done(index, { reason: 'duplicate' });
      return slot;
    }
    seen.add(source.id);
    if (written.has(source.real)) {
      slot.outcome = done(index, { reason: 'converted-session' });
      return slot;
    }
    if (source.sidecar && !options.subagents) {
      slot.outcome = done(index, { reason: 'subagent' });
      return slot;
    }
    const targets: ConvertTarget[] = [];
    let reason: ConvertReason | undefined;
    let upToDate: ManifestEntry | undefined;
    for (const { format, root } of roots) {
      const entry = manifests.get(root)!.get(source.real, format);
      if (entry) slot.known.set(format, entry);
      const known = entry && knownSession(entry);
      if (options.force) {
        targets.push({ format, root, rewrite: true, ...(known ? { known } : {}) });
        reason ??= 'forced';
      } else if (!known) {
        targets.push({ format, root, rewrite: false });
        reason ??= 'new';
      } else if (!existsSync(known.session_file)) {
        // The session was deleted since: write it again.
        targets.push({ format, root, rewrite: true, known });
        reason ??= 'missing';
      } else if (entry.size === source.size && entry.mtime_ms === source.mtimeMs) {
        slot.fresh.push({ format, session_id: entry.session_id, session_file: entry.session_file, unchanged: true });
        upToDate ??= entry;
      } else {
        // Size or mtime moved: the converter hashes the file; bytes only added are appended to the session,
        // other changes make a new one.
        targets.push({ format, root, rewrite: false, known });
        reason ??= 'changed';
      }
    }
    if (targets.length === 0) {
      slot.outcome = done(index, {
        reason: 'unchanged', harnesses: slot.fresh, ...(upToDate ? { input_format: upToDate.input_format, cwd: upToDate.cwd } : {}),
      });
      return slot;
    }
    slot.task = { index, path: source.path, real: source.real, targets, reason: reason ?? 'new', ...(source.bytes ? { bytes: source.bytes } : {}), ...(source.named ? { named: true } : {}) };
    return slot;
  });
}

/** Append this source's entries to each root's manifest: new sessions, and known ones whose stat moved. */
async function record(
  slot: Slot, outcome: ConvertOutcome, roots: { format: string; root: string }[], writers: Map<string, ManifestWriter>,
): Promise<void> {
  const fingerprint = outcome.fingerprint;
  if (!fingerprint || slot.real === undefined || (outcome.status !== 'converted' && outcome.reason !== 'unchanged')) return;
  const at = new Date().toISOString();
  const byRoot = new Map<string, ManifestEntry[]>();
  for (const ref of outcome.harnesses) {
    const root = roots.find((r) => r.format === ref.format)?.root;
    if (root === undefined) continue;
    const known = slot.known.get(ref.format);
    let entry: ManifestEntry | undefined;
    if (!ref.unchanged) {
      const mark = outcome.marks?.[ref.format];
      entry = {
        v: 1, source: slot.real, ...fingerprint, format: ref.format, session_id: ref.session_id, session_file: ref.session_file,
        input_format: outcome.input_format ?? 'unknown', cwd: (known?.session_id === ref.session_id ? known.cwd : outcome.cwd) ?? '', at,
        ...(mark ? { session_mark: mark } : {}), ...(outcome.tail_events !== undefined ? { tail_events: outcome.tail_events } : {}),
      };
    } else if (known && (known.size !== fingerprint.size || known.mtime_ms !== fingerprint.mtime_ms)
      && slot.task?.targets.some((t) => t.format === ref.format)) {
      // Same bytes, new mtime (touched, copied back): remember the new stat so the next run need not hash.
      entry = { ...known, size: fingerprint.size, mtime_ms: fingerprint.mtime_ms, at };
    }
    if (entry) byRoot.set(root, [...(byRoot.get(root) ?? []), entry]);
  }
  await Promise.all([...byRoot].map(([root, entries]) => {
    let writer = writers.get(root);
    if (!writer) {
      writer = new ManifestWriter(root);
      writers.set(root, writer);
    }
    return writer.append(entries);
  }));
}
