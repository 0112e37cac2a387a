// The bounded job queue of `sjd serve` (issue #15): all libtorch work (a solve, a sample, a
// generated puzzle) runs as a job; at most `concurrency` jobs run at once (their sampler steps
// interleave on the one event loop, one step at a time, since a step is synchronous) and at most
// `maxWaiting` wait for a slot. A job that finds both full is refused at once (QueueFullError,
// with a Retry-After estimate from recent job times): the backlog never grows past the bound.
// A waiting job whose client goes away leaves the queue without running.

/** Refused: every slot runs and the waiting line is full. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterS: number) {
    super(
      `the server is busy (all job slots and the waiting line are full); retry in ${retryAfterS} s`,
    );
  }
}

/** The client went away (or the server is stopping) before the job finished. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled: the client closed the request');
  }
}

export interface QueueOptions {
  concurrency: number; // jobs running at once
  maxWaiting: number; // jobs waiting for a slot
}

export interface QueueStats extends QueueOptions {
  running: number;
  waiting: number;
  done: number; // jobs finished (or failed)
  refused: number; // jobs refused as the queue was full
}

interface Waiter {
  start: () => void;
  leave: () => void;
}

export class JobQueue {
  readonly #o: QueueOptions;
  #running = 0;
  readonly #waiting: Waiter[] = [];
  #done = 0;
  #refused = 0;
  #meanS = 1; // moving average of a job's seconds (for Retry-After)
  readonly #idle: (() => void)[] = [];

  constructor(o: QueueOptions) {
    if (!(Number.isInteger(o.concurrency) && o.concurrency >= 1))
      throw new Error(`job concurrency must be a positive integer, got ${o.concurrency}`);
    if (!(Number.isInteger(o.maxWaiting) && o.maxWaiting >= 0))
      throw new Error(`waiting jobs must be a non-negative integer, got ${o.maxWaiting}`);
    this.#o = { ...o };
  }

  stats(): QueueStats {
    return {
      ...this.#o,
      running: this.#running,
      waiting: this.#waiting.length,
      done: this.#done,
      refused: this.#refused,
    };
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
   * when the slots and the waiting line are full, and with CancelledError when `signal` aborts
   * while the job waits.
   */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new CancelledError();
    if (this.#running >= this.#o.concurrency) {
      if (this.full()) throw this.refusal();
      await new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', w.leave);
            resolve();
          },
          leave: () => {
            this.#waiting.splice(this.#waiting.indexOf(w), 1);
            this.#settle();
            reject(new CancelledError());
          },
        };
        signal?.addEventListener('abort', w.leave, { once: true });
        this.#waiting.push(w);
      });
    } else this.#running++;
    const t0 = performance.now();
    try {
      return await job();
    } finally {
      this.#meanS = 0.8 * this.#meanS + 0.2 * ((performance.now() - t0) / 1000);
      this.#done++;
      const next = this.#waiting.shift();
      if (next)
        next.start(); // the slot passes on
      else this.#running--;
      this.#settle();
    }
  }

  /** The error that refuses a job (counted as refused). */
  refusal(): QueueFullError {
    this.#refused++;
    return new QueueFullError(this.retryAfter());
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
