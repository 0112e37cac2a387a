// What a command shows while it works: nothing for work done within a second (SHOW_AFTER_S; the
// environment's SJD_PROGRESS_AFTER sets another), so a quick command's output is only its result;
// longer work is shown from its first report after that: on a terminal, a cli-progress bar on
// stderr (redrawn as the work reports, since the work is synchronous and no timer would fire);
// elsewhere (a log, a pipe, CI) one plain line then, at most one every PLAIN_EVERY_S seconds
// after, and one at the end, so that nothing runs for long without a word.
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
export const PLAIN_EVERY_S = 3;

/** Seconds of work before a report shows, unless SJD_PROGRESS_AFTER says otherwise. */
export const SHOW_AFTER_S = 1;

/**
 * Seconds of work before a report shows: work done sooner says nothing. SJD_PROGRESS_AFTER sets
 * it (0: every report from its first update, for a log that wants them all).
 */
export function showAfterS(env = process.env.SJD_PROGRESS_AFTER): number {
  if (env === undefined || env === '') return SHOW_AFTER_S;
  const s = Number(env);
  if (!(Number.isFinite(s) && s >= 0))
    throw new Error(`SJD_PROGRESS_AFTER=${env}: expected seconds, 0 or more`);
  return s;
}

export interface Progress {
  /** `done` of `total` units so far (units as the constructor named them). */
  update(done: number): void;
  /** Ends the bar (or prints the last plain line). */
  stop(): void;
}

/**
 * A progress report of `what` (e.g. 'sampling 1000 images') over `total` `unit`s, shown from the
 * first update at least SHOW_AFTER_S seconds after it was made (`quietFor`: 0 shows it at once);
 * work resumed at `from` units counts its rate from there.
 */
export function progress(
  what: string,
  total: number,
  unit: string,
  quietFor = showAfterS(),
  from = 0,
): Progress {
  const t0 = performance.now();
  let shown: Progress | null = null;
  const show = () => {
    shown ??= shownProgress(what, total, unit, t0, from);
    return shown;
  };
  if (quietFor <= 0) show();
  return {
    update: (d) => {
      if (shown || performance.now() - t0 >= quietFor * 1000) show().update(d);
    },
    stop: () => shown?.stop(),
  };
}

/** The report itself, started now (the work began at `t0`): a bar, or the plain lines. */
function shownProgress(
  what: string,
  total: number,
  unit: string,
  t0: number,
  from: number,
): Progress {
  const rate = (done: number) => {
    const s = (performance.now() - t0) / 1000;
    return s > 0 ? ((done - from) / s).toFixed(1) : '-';
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
  let last: number | null = null; // when the last line was printed
  let done = 0;
  return {
    update: (d) => {
      done = d;
      const now = performance.now();
      if (last === null || now - last >= PLAIN_EVERY_S * 1000) {
        last = now;
        console.error(`${what}: ${done}/${total} ${unit} (${rate(done)} ${unit}/s)`);
      }
    },
    stop: () =>
      console.error(
        `${what}: ${done}/${total} ${unit} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      ),
  };
}

/** fn() with a progress report over `total` units, given the update it calls; stopped after. */
export function withProgress<T>(
  what: string,
  total: number,
  unit: string,
  fn: (update: (done: number) => void) => T,
): T {
  const p = progress(what, total, unit);
  try {
    return fn((d) => p.update(d));
  } finally {
    p.stop();
  }
}

/**
 * For work whose length is not known ahead (an adaptive solve stops when its boards do), or that
 * reports seldom (worker processes, a chunk at a time): a line of what it has done so far once the
 * work has run for the seconds a report waits (showAfterS), then one every PLAIN_EVERY_S seconds,
 * `say(count)` naming the latest count. It prints from `update` (work that keeps this thread busy)
 * and from a timer (work waited for in other processes); `stop` ends it.
 */
export interface Heartbeat {
  update(count: number): void;
  stop(): void;
}

export function heartbeat(what: string, say: (count: number) => string): Heartbeat {
  const t0 = performance.now();
  let last = t0 + (showAfterS() - PLAIN_EVERY_S) * 1000; // the first line after showAfterS()
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
