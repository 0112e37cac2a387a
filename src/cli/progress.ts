// What a command shows while it works: on a terminal, a cli-progress bar on stderr (redrawn as
// the work reports, since the work is synchronous and no timer would fire); elsewhere (a log, a
// pipe, CI) one plain line at the start, then at most one every few seconds, and one at the end,
// so that nothing runs for long without a word.
import type CliProgress from 'cli-progress';
import { lazyRequire } from '../util/lazy-require.js';

/** cli-progress, loaded with the first bar (util/lazy-require.ts); the commands' bars share it. */
export const cliProgress = lazyRequire<typeof CliProgress>('cli-progress');

/**
 * The bars' clock: cli-progress's own format, and '-' while the ETA is unknown (it gives 'NULL'
 * or 'INF', which its format cut to 'ETA LLs' and 'ETA NFs').
 */
export const formatTime = (t: unknown, options: object, roundTo: number): string =>
  typeof t === 'number' && Number.isFinite(t)
    ? cliProgress().Format.TimeFormat(t, options, roundTo)
    : '-';

/** Seconds between the plain lines off a terminal. */
export const PLAIN_EVERY_S = 5;

export interface Progress {
  /** `done` of `total` units so far (units as the constructor named them). */
  update(done: number): void;
  /** Ends the bar (or prints the last plain line). */
  stop(): void;
}

/** A progress report of `what` (e.g. 'sampling 1000 images') over `total` `unit`s. */
export function progress(what: string, total: number, unit: string): Progress {
  const t0 = performance.now();
  const rate = (done: number) => {
    const s = (performance.now() - t0) / 1000;
    return s > 0 ? (done / s).toFixed(1) : '-';
  };
  if (process.stderr.isTTY) {
    const bar = new (cliProgress().SingleBar)(
      {
        stream: process.stderr,
        format: `${what} |{bar}| {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted}`,
        etaBuffer: 20,
        formatTime,
      },
      cliProgress().Presets.shades_classic,
    );
    bar.start(total, 0, { rate: '-' });
    return {
      update: (done) => bar.update(done, { rate: rate(done) }),
      stop: () => bar.stop(),
    };
  }
  let last = performance.now();
  let done = 0;
  console.error(`${what}: 0/${total} ${unit}`);
  return {
    update: (d) => {
      done = d;
      if (performance.now() - last >= PLAIN_EVERY_S * 1000) {
        last = performance.now();
        console.error(`${what}: ${done}/${total} ${unit} (${rate(done)} ${unit}/s)`);
      }
    },
    stop: () =>
      console.error(
        `${what}: ${done}/${total} ${unit} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      ),
  };
}

/**
 * Work of fewer units than this is reported by nothing (one batch of samples: a second or two);
 * the sampling commands' default batch.
 */
export const REPORT_FROM = 65;

/** fn() with a progress report over `total` units, given the update it calls; stopped after. */
export function withProgress<T>(
  what: string,
  total: number,
  unit: string,
  fn: (update: (done: number) => void) => T,
): T {
  if (total < REPORT_FROM) return fn(() => {});
  const p = progress(what, total, unit);
  try {
    return fn((d) => p.update(d));
  } finally {
    p.stop();
  }
}

/**
 * For work whose length is not known ahead (an adaptive solve stops when its boards do), or that
 * reports seldom (worker processes, a chunk at a time): a line every PLAIN_EVERY_S seconds of what
 * it has done so far, `say(count)` naming the latest count. It prints from `update` (work that
 * keeps this thread busy) and from a timer (work waited for in other processes); `stop` ends it.
 */
export interface Heartbeat {
  update(count: number): void;
  stop(): void;
}

export function heartbeat(what: string, say: (count: number) => string): Heartbeat {
  const t0 = performance.now();
  let last = t0;
  let count = 0;
  const beat = () => {
    const now = performance.now();
    if (now - last < PLAIN_EVERY_S * 1000) return;
    last = now;
    console.error(`${what}: ${say(count)}, ${((now - t0) / 1000).toFixed(0)} s`);
  };
  const timer = setInterval(beat, 1000);
  timer.unref();
  return {
    update: (c) => {
      count = c;
      beat();
    },
    stop: () => clearInterval(timer),
  };
}
