// Test helper: which processes of a process group are still alive, read from /proc (Linux), so a test can
// check that stopping a monitor left nothing of it running.
import { readFileSync, readdirSync } from 'node:fs';

/** Processes of a process group that are still running (not zombies waiting to be reaped), from /proc. */
export function liveInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live.push(Number(entry));
  }
  return live;
}

/**
 * The group's live processes once it has settled: a killed process closes its pipes a moment before the
 * kernel marks it dead, so look again for up to 5 s before answering.
 */
export async function settledGroup(pgid: number): Promise<number[]> {
  for (let i = 0; i < 100; i += 1) {
    if (liveInGroup(pgid).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return liveInGroup(pgid);
}
