// A process's claim on a run folder (docs/design.md §4): training writes checkpoints in place and
// a comparison caches its scores beside them, so two processes working on one run would corrupt
// it. A claim is a small file beside the folder (.<name>.lock, holding the claimer's pid and host),
// created exclusively. A claim whose process has died (a stop, a kill, a crash) is stale and is
// taken over; a claim of this process is granted again (re-entrant), so a comparison's claim
// covers the training it starts. On Linux a claim also holds its process's start time
// (/proc/PID/stat, field 22), so a pid the system has since given to another process, or a
// process killed but not yet reaped (a zombie), holds nothing. A takeover re-reads the file
// after a moment, so of two processes that found one stale claim at once, one keeps it and the
// other backs off.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { makeDir } from '../util/atomic.js';

/** Who holds a claim. */
export interface Claimer {
  pid: number;
  host: string;
  start?: string; // the process's start time in clock ticks since boot (Linux; absent elsewhere)
}

/** A process's state letter and start time from /proc/PID/stat, or null where there is none. */
export function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
    return { state: rest[0]!, start: rest[19]! }; // fields 3 and 22
  } catch {
    return null;
  }
}

/** The claim file of a run folder: beside it, hidden, so the folder holds only the run. */
export const claimFile = (dir: string): string => join(dirname(dir), `.${basename(dir)}.lock`);

const me = (): Claimer => {
  const start = procStat(process.pid)?.start;
  return { pid: process.pid, host: hostname(), ...(start ? { start } : {}) };
};

function readClaimer(file: string): Claimer | null {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8'));
    return typeof c.pid === 'number' &&
      typeof c.host === 'string' &&
      (c.start === undefined || typeof c.start === 'string')
      ? c
      : null;
  } catch {
    return null; // gone, or half-written by a process stopped mid-write: no one holds it
  }
}

const isMe = (c: Claimer | null): boolean =>
  c !== null && c.pid === process.pid && c.host === hostname();

/**
 * Whether a claimer is alive (a claim from another host is taken to be): its pid runs, is not a
 * zombie, and, where the claim has a start time, was started then (not a reused pid).
 */
function alive(c: Claimer): boolean {
  if (c.host !== hostname()) return true;
  try {
    process.kill(c.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // EPERM: someone else's
  }
  const stat = procStat(c.pid);
  if (!stat) return procStat(process.pid) === null; // exited since, unless there is no /proc
  return stat.state !== 'Z' && (c.start === undefined || c.start === stat.start);
}

/** Blocks for `ms` milliseconds (a takeover's settling time; no event loop turn needed). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whoever holds `dir`'s claim, if a live process other than this one does. */
export function claimHolder(dir: string): Claimer | null {
  const c = readClaimer(claimFile(dir));
  return c && !isMe(c) && alive(c) ? c : null;
}

/**
 * Claims the run folder `dir` for this process: returns the release (which removes the claim, if
 * it is still this process's), or null when a live process holds it.
 */
export function claimRun(dir: string, settleMs = 200): (() => void) | null {
  const file = claimFile(dir);
  makeDir(dirname(file));
  const release = () => {
    if (isMe(readClaimer(file))) rmSync(file, { force: true });
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me()), { flag: 'wx' });
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = readClaimer(file);
    if (!holder) {
      pause(settleMs); // perhaps created this instant and not yet written
      holder = readClaimer(file);
    }
    if (isMe(holder)) return () => {}; // re-entrant: the outer claim releases it
    if (holder && alive(holder)) return null;
    // stale: take it over, then check that no other process took it over at the same moment
    writeFileSync(file, JSON.stringify(me()));
    pause(settleMs);
    if (isMe(readClaimer(file))) return release;
  }
  return null;
}

/** The one-line refusal of a run folder that `c` holds. */
const inUse = (dir: string, c: Claimer | null) =>
  new Error(
    `${dir} is in use by process ${c?.pid ?? '?'}${c && c.host !== hostname() ? ` on ${c.host}` : ''}; wait for it to finish or stop it`,
  );

/** Fails in one line when another live process holds `dir` (commands check before loading data). */
export function checkUnclaimed(dir: string): void {
  const c = claimHolder(dir);
  if (c) throw inUse(dir, c);
}

/** claimRun, or a one-line error naming the process that holds the run. */
export function claimRunOrFail(dir: string): () => void {
  const release = claimRun(dir);
  if (release) return release;
  throw inUse(dir, claimHolder(dir));
}
