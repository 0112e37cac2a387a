// A comparison's runs, worked through by one process or by several sharing the work
// (docs/design.md §4): each run is trained and scored under a claim on its folder (train/run-claim.ts),
// so a second `sjd compare` on the same --out takes the runs the first has not reached, and each
// waits at the end for the runs the other holds, then reports on them all from the caches. With
// `wait: false` a process leaves those runs to their holders and returns what it has (a script
// of several comparisons then goes on to the next one); the last process to finish a run finds
// every other run done and reports on them all. Results come back in the queue's order, whoever
// worked them.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { claimHolder, claimRun } from '../train/run-claim.js';

/** One run of a comparison: its folder and the work on it (null when interrupted). */
export interface QueuedRun<R> {
  dir: string;
  work: () => Promise<R | null>;
  /** whether its results are all cached (working it then only reads them): such runs go first */
  scored?: () => boolean;
}

/** The runs of every model x seed, seed by seed, each in `<out>/<model>-seed<seed>` (`make` gives its work). */
export function modelSeedRuns<R>(
  o: { out: string; seeds: number[]; models: string[] },
  make: (model: string, seed: number, dir: string) => QueuedRun<R>,
): QueuedRun<R>[] {
  return o.seeds.flatMap((seed) =>
    o.models.map((model) => make(model, seed, join(o.out, `${model}-seed${seed}`))),
  );
}

export interface QueueOptions<R> {
  log?: (line: string) => void;
  /** after every run this process finishes: the results so far, in the queue's order */
  onResult?: (done: R[]) => void | Promise<void>;
  /** wait for the runs other processes hold (default); else leave them to those processes */
  wait?: boolean;
  /** how often to look again at runs other processes hold (ms; default 10 s) */
  pollMs?: number;
}

/**
 * Works through `runs` in order (those already scored first), each under a claim on its folder;
 * a run another live process holds is left for later and looked at again every `pollMs` until it
 * is free (its results are then cached, so the work reads them). Returns the runs' results in the
 * queue's order (with `wait: false`, those it reached), or null when one was interrupted.
 */
export async function workThrough<R>(
  runs: QueuedRun<R>[],
  o: QueueOptions<R> = {},
): Promise<R[] | null> {
  const results = new Map<number, R>();
  const inOrder = () => [...results.keys()].sort((a, b) => a - b).map((i) => results.get(i)!);
  // the runs already scored first (they take no time), so that a report written after each run
  // shows every finished run from the start, not only those this process has reached
  const ready = runs.map((r) => r.scored?.() ?? false);
  let pending = runs.map((_, i) => i).sort((a, b) => Number(ready[b]) - Number(ready[a]) || a - b);
  let waitingFor = '';
  while (pending.length > 0) {
    const held: number[] = [];
    for (const i of pending) {
      const release = claimRun(runs[i]!.dir);
      if (!release) {
        held.push(i);
        continue;
      }
      let r: R | null;
      try {
        r = await runs[i]!.work();
      } finally {
        release();
      }
      if (r === null) return null;
      results.set(i, r);
      await o.onResult?.(inOrder());
    }
    if (o.wait === false && held.length > 0 && held.length === pending.length) {
      // a pass that finished nothing: what is left, other processes are working on
      o.log?.(`left to the processes that hold them: ${held.map((i) => runs[i]!.dir).join(', ')}`);
      break;
    }
    if (held.length > 0 && o.wait !== false) {
      const who = held
        .map((i) => `${runs[i]!.dir} (process ${claimHolder(runs[i]!.dir)?.pid ?? 'gone'})`)
        .join(', ');
      if (who !== waitingFor) o.log?.(`waiting for runs other processes hold: ${who}`);
      waitingFor = who;
      await sleep(o.pollMs ?? 10_000);
    }
    pending = held;
  }
  return inOrder();
}
