// The bounded job queue of `sjd serve`: all libtorch work (a solve, a sample, a generated puzzle;
// the solves that share a batch, as that batch: sudoku-batch.ts) runs as a job; at most
// `concurrency` jobs run at once (their sampler steps interleave on the one event loop, one step at
// a time, since a step is synchronous) and at most `maxWaiting` wait for a slot. A job that finds
// both full is refused at once (QueueFullError, with a Retry-After estimate from recent job times):
// the backlog never grows past the bound; one that has waited `waitMs` without a slot (the slots
// held by long jobs) is refused then, so every request is answered within `waitMs` plus its own
// run. A waiting job whose client goes away leaves the queue without running. A running job says
// when it is stalled (waiting for a client that does not read), so the stats tell running jobs
// from stalled ones; they count the jobs dropped with their client and those stopped at their
// time cap.

/** Refused: every slot runs and the waiting line is full, or no slot freed within `waitMs`. */
export class QueueFullError extends Error {
  constructor(
    readonly retryAfterS: number,
    why = 'all job slots and the waiting line are full',
  ) {
    super(`the server is busy (${why}); retry in ${retryAfterS} s`);
  }
}

/** The client went away (or the server is stopping) before the job finished. */
export class CancelledError extends Error {
  constructor(message = 'cancelled: the client closed the request') {
    super(message);
  }
}

/** The client stopped reading: a write waited past its deadline, so the client was dropped. */
export class StalledClientError extends CancelledError {
  constructor(writeMs: number) {
    super(`cancelled: the client read nothing for ${writeMs} ms and was dropped`);
  }
}

/** A time cap as a message gives it: milliseconds under a second, else seconds. */
const capText = (ms: number) =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The job ran past its wall-clock cap. */
export class JobTimeoutError extends Error {
  constructor(capMs: number, nfe: number) {
    super(
      `the job ran past its time cap (${capText(capMs)} for ${nfe} NFE) and was stopped; ask for fewer NFE or samples`,
    );
  }
}

export interface QueueOptions {
  concurrency: number; // jobs running at once
  maxWaiting: number; // jobs waiting for a slot
  waitMs?: number; // a job waits at most this long for a slot, then is refused (default 5 s)
}

export const DEFAULT_WAIT_MS = 5_000;

/** The queue's state as /health shows it (JSON: snake_case names, as the whole API). */
export interface QueueStats {
  concurrency: number;
  max_waiting: number;
  wait_ms: number;
  running: number; // jobs in a slot, making progress
  stalled: number; // jobs in a slot, waiting for a client that does not read
  waiting: number;
  done: number; // jobs finished (or failed)
  refused: number; // jobs refused as the queue was full
  dropped: number; // jobs cancelled as their client stopped reading
  timed_out: number; // jobs stopped at their time cap (a shared batch's solves each count)
}

/** What a running job tells the queue about itself. */
export interface JobState {
  stalled: boolean; // waiting for its client to read
}

interface Waiter {
  start: () => void;
  leave: () => void;
}

export class JobQueue {
  readonly #o: Required<QueueOptions>;
  #running = 0;
  readonly #waiting: Waiter[] = [];
  readonly #jobs = new Set<JobState>(); // the running ones
  #done = 0;
  #refused = 0;
  #dropped = 0;
  #timedOut = 0;
  #meanS = 1; // moving average of a job's seconds (for Retry-After)
  readonly #idle: (() => void)[] = [];

  constructor(o: QueueOptions) {
    if (!(Number.isInteger(o.concurrency) && o.concurrency >= 1))
      throw new Error(`job concurrency must be a positive integer, got ${o.concurrency}`);
    if (!(Number.isInteger(o.maxWaiting) && o.maxWaiting >= 0))
      throw new Error(`waiting jobs must be a non-negative integer, got ${o.maxWaiting}`);
    const waitMs = o.waitMs ?? DEFAULT_WAIT_MS;
    if (!(Number.isFinite(waitMs) && waitMs >= 1))
      throw new Error(`a job's wait must be a number of milliseconds >= 1, got ${waitMs}`);
    this.#o = { ...o, waitMs };
  }

  stats(): QueueStats {
    const stalled = [...this.#jobs].filter((j) => j.stalled).length;
    return {
      concurrency: this.#o.concurrency,
      max_waiting: this.#o.maxWaiting,
      wait_ms: this.#o.waitMs,
      running: this.#running - stalled,
      stalled,
      waiting: this.#waiting.length,
      done: this.#done,
      refused: this.#refused,
      dropped: this.#dropped,
      timed_out: this.#timedOut,
    };
  }

  /** Whether a job waits for a slot (a stalled stream then yields its own: sse.ts). */
  hasWaiting(): boolean {
    return this.#waiting.length > 0;
  }

  /** Whether a job asked for now would be refused. */
  full(): boolean {
    return this.#running >= this.#o.concurrency && this.#waiting.length >= this.#o.maxWaiting;
  }

  /** Seconds until a slot is likely free: the waiting jobs and one more, shared by the slots. */
  retryAfter(): number {
    const s = (this.#meanS * (this.#waiting.length + 1)) / this.#o.concurrency;
    return Math.min(60, Math.max(1, Math.ceil(s)));
  }

  /**
   * Runs `job` in a free slot, or once one frees; rejects with QueueFullError without waiting
   * when the slots and the waiting line are full, or after `waitMs` without a slot, and with
   * CancelledError when `signal` aborts while the job waits. The job gets its state to update
   * (stalled or not).
   */
  async run<T>(job: (state: JobState) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new CancelledError();
    if (this.#running >= this.#o.concurrency) {
      if (this.full()) throw this.refusal();
      await new Promise<void>((resolve, reject) => {
        const out = (e: Error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', w.leave);
          this.#waiting.splice(this.#waiting.indexOf(w), 1);
          this.#settle();
          reject(e);
        };
        const w: Waiter = {
          start: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', w.leave);
            resolve();
          },
          leave: () => out(new CancelledError()),
        };
        const timer = setTimeout(
          () => out(this.refusal(`no job slot freed within ${this.#o.waitMs / 1000} s`)),
          this.#o.waitMs,
        );
        signal?.addEventListener('abort', w.leave, { once: true });
        this.#waiting.push(w);
      });
    } else this.#running++;
    const t0 = performance.now();
    const state: JobState = { stalled: false };
    this.#jobs.add(state);
    try {
      return await job(state);
    } catch (e) {
      this.tally(e);
      throw e;
    } finally {
      this.#jobs.delete(state);
      this.#meanS = 0.8 * this.#meanS + 0.2 * ((performance.now() - t0) / 1000);
      this.#done++;
      const next = this.#waiting.shift();
      if (next)
        next.start(); // the slot passes on
      else this.#running--;
      this.#settle();
    }
  }

  /**
   * Counts why work stopped early: a client dropped as it stopped reading, a time cap. A job's
   * error is counted when it ends; a shared batch (sudoku-batch.ts) counts each request it stops.
   */
  tally(e: unknown): void {
    if (e instanceof StalledClientError) this.#dropped++;
    if (e instanceof JobTimeoutError) this.#timedOut++;
  }

  /** The error that refuses a job (counted as refused). */
  refusal(why?: string): QueueFullError {
    this.#refused++;
    return new QueueFullError(this.retryAfter(), why);
  }

  /** Resolves once no job runs or waits (for a drain on shutdown). */
  idle(): Promise<void> {
    if (this.#running === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #settle(): void {
    if (this.#running === 0 && this.#waiting.length === 0)
      for (const f of this.#idle.splice(0)) f();
  }
}
