// The shared batch of POST /api/sudoku/solve (app:sudoku's adaptive samplers, continuous
// batching: sampling/loop.ts): solves whose batch settings are equal (the sampler, its
// temperature, top-p and commit rule, the rules: what tasks/sudoku/solve.ts refillSettings reads)
// join one refilled batch, so that concurrent solves share the network's passes. Each solve is one
// board, id 0 with its own seed, budget and retries (a retry.ts RetrySource of its one puzzle): a
// row's draws are keyed by the row alone, so its answer is exactly `sjd solve`'s for that seed,
// and the stream's. The batch takes one pass per turn of the event loop while it has rows, and
// ends when it has none; the next solve starts another.
//
// Against the job queue (job-queue.ts), a batch is one job: it waits for a slot (or is refused,
// 503) as any job, and the solves that come for it meanwhile wait with it; once it runs, a solve
// joins it at once, without a slot of its own. A batch seats at most `batchSize` solves, each
// with at most one row at a time, so no row waits for a slot of the batch. A solve that finds the
// batch of its settings full, or running while another job waits for a slot (a busy batch would
// hold its slot for ever), starts another batch, a job like any other. So a running job holds at
// most `batchSize` rows, a waiting one at most `batchSize` solves, and the queue's bounds (its
// slots, its waiting line, its 503s before the body is read) bound them all. The queue's stats
// count each batch as one job (run, done, refused); /health shows beside them the solves riding
// the batches and the passes they took (SharedBatchStats), and counts a solve stopped at its
// time cap among the queue's timed_out.
//
// A solve whose client goes away, or that passes its time cap (jobCapMs for its NFE budget,
// counted from the moment its batch runs with it), is answered at once (CancelledError,
// JobTimeoutError), as a job would be; its row leaves the batch at the next pass
// (RowSource.dropped) and the others go on. A puzzle without a solution is refused (400) by a
// bounded search when its row would enter.
import { setImmediate as turn } from 'node:timers/promises';
import type { Network } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import {
  checkBatchSize,
  type RowAnswer,
  type RowJob,
  type RowSource,
  refillSteps,
} from '../sampling/index.js';
import * as sudoku from '../tasks/sudoku/index.js';
import { tidy } from '../torch/index.js';
import type { SharedBatchStats } from './api-types.js';
import { type Deadlines, jobCapMs } from './deadlines.js';
import { HttpError } from './http-error.js';
import { CancelledError, type JobQueue, JobTimeoutError } from './job-queue.js';

/** A solve riding a batch: its puzzle, its board's rows (retry.ts), how it is answered. */
interface Solve {
  puzzle: sudoku.Board;
  source: sudoku.RetrySource;
  nfe: number; // its budget (its time cap scales with it)
  answer: (r: sudoku.SolveResult | Error) => void;
  settled: boolean; // answered (a board or an error): its rows are dropped
  cap?: NodeJS.Timeout;
}

/**
 * One batch: the solves riding it, and the row source its refilled run reads (their first rows
 * in the order they came, a retry ahead of them, as retry.ts orders a set's boards).
 */
class Batch implements RowSource {
  readonly solves = new Set<Solve>(); // riding, not yet answered
  readonly #fresh: Solve[] = []; // joined, first row not yet taken
  readonly #retrying: Solve[] = []; // a retry queued
  readonly #rows = new Map<RowJob, Solve>(); // the rows in the batch, by their job
  running = false; // in its job slot
  closed = false; // its run has ended (or never will run): no solve joins it
  readonly stop = new AbortController(); // leaves the waiting line when every solve has gone

  constructor(
    readonly model: Network,
    readonly settings: sudoku.RefillSettings,
    readonly onEnd: (r: sudoku.SolveResult | Error) => void, // told each solve's answer
  ) {}

  add(s: Solve): void {
    this.solves.add(s);
    this.#fresh.push(s);
  }

  /** Answers `s` (once) and lets its rows go; a batch left empty before it ran stops waiting. */
  end(s: Solve, r: sudoku.SolveResult | Error): void {
    if (s.settled) return;
    s.settled = true;
    clearTimeout(s.cap);
    this.solves.delete(s);
    this.onEnd(r);
    s.answer(r);
    if (!this.running && this.solves.size === 0) this.stop.abort(new CancelledError());
  }

  take(): RowJob | undefined {
    for (;;) {
      const retry = this.#retrying.shift();
      const s = retry ?? this.#fresh.shift();
      if (!s) return undefined;
      if (s.settled) continue;
      if (!retry) {
        const problem = sudoku.pairProblem(s.puzzle, null); // bounded search
        if (problem) {
          this.end(s, new HttpError(400, `puzzle: ${problem}`));
          continue;
        }
      }
      const job = s.source.take()!; // its board, or the retry just queued
      this.#rows.set(job, s);
      return job;
    }
  }

  done(job: RowJob, answer: RowAnswer): void {
    const s = this.#rows.get(job)!;
    this.#rows.delete(job);
    if (s.settled) return;
    s.source.done(job, answer);
    if (s.source.complete) this.end(s, s.source.result);
    else this.#retrying.push(s);
  }

  dropped(job: RowJob): boolean {
    if (!this.#rows.get(job)?.settled) return false;
    this.#rows.delete(job);
    return true;
  }
}

/** Why a solve stops when its signal aborts: the signal's reason when it is ours. */
const stopReason = (signal: AbortSignal): Error =>
  signal.reason instanceof CancelledError || signal.reason instanceof JobTimeoutError
    ? signal.reason
    : new CancelledError();

/** The shared batches of a server's Sudoku solves, by their settings. */
export class SudokuBatches {
  readonly #queue: JobQueue;
  readonly #deadlines: Deadlines;
  readonly #batchSize: number;
  readonly #open = new Map<string, Batch>(); // the batch a solve of these settings joins
  readonly #all = new Set<Batch>(); // running or waiting for a slot
  #answered = 0;
  #left = 0;
  #passes = 0;
  #rows = 0;

  constructor(queue: JobQueue, deadlines: Deadlines, batchSize: number) {
    checkBatchSize(batchSize);
    this.#queue = queue;
    this.#deadlines = deadlines;
    this.#batchSize = batchSize;
  }

  stats(): SharedBatchStats {
    let solves = 0;
    for (const b of this.#all) solves += b.solves.size;
    return {
      batches: this.#all.size,
      solves,
      answered: this.#answered,
      left: this.#left,
      passes: this.#passes,
      rows: this.#rows,
    };
  }

  /**
   * `puzzle` solved under `o` (an adaptive sampler; o.batch is the service's) in the batch of its
   * settings: what solveSudoku returns for [puzzle] with `o`. Rejects as a queued job would: with
   * QueueFullError when its batch is refused a slot, CancelledError when `signal` aborts,
   * JobTimeoutError past its time cap, an HttpError (400) for a puzzle without a solution.
   */
  solve(
    model: Network,
    proc: SJDProcess,
    puzzle: sudoku.Board,
    o: sudoku.SolveOptions,
    signal: AbortSignal,
  ): Promise<sudoku.SolveResult> {
    if (signal.aborted) return Promise.reject(stopReason(signal));
    const source = new sudoku.RetrySource([puzzle], 0, sudoku.retryOptions(o)); // checks o.retries
    const settings = sudoku.refillSettings({ ...o, batch: this.#batchSize });
    const key = JSON.stringify({ ...settings, exclude: settings.exclude !== undefined });
    const open = this.#open.get(key);
    const b = open && this.#joinable(open, model) ? open : this.#start(model, proc, key, settings);
    return new Promise((resolve, reject) => {
      const leave = () => b.end(s, stopReason(signal));
      const s: Solve = {
        puzzle,
        source,
        nfe: o.nfe,
        answer: (r) => {
          signal.removeEventListener('abort', leave);
          if (r instanceof Error) reject(r);
          else resolve(r);
        },
        settled: false,
      };
      signal.addEventListener('abort', leave, { once: true });
      b.add(s);
      if (b.running) this.#seat(b, s);
    });
  }

  /** Whether a solve may join `b`: open, of the same model, a seat free, no job kept waiting. */
  #joinable(b: Batch, model: Network): boolean {
    if (b.closed || b.model !== model || b.solves.size >= this.#batchSize) return false;
    return !(b.running && this.#queue.hasWaiting());
  }

  /** Starts `s`'s time cap: it is answered with JobTimeoutError when the cap passes. */
  #seat(b: Batch, s: Solve): void {
    const capMs = jobCapMs(this.#deadlines, s.nfe);
    s.cap = setTimeout(() => {
      const e = new JobTimeoutError(capMs, s.nfe);
      this.#queue.tally(e);
      b.end(s, e);
    }, capMs);
  }

  /** A new batch for `key`, as a job of the queue; once it ends, any solve left gets its error. */
  #start(model: Network, proc: SJDProcess, key: string, settings: sudoku.RefillSettings): Batch {
    const b = new Batch(model, settings, (r) => {
      if (!(r instanceof Error)) this.#answered++;
      else if (r instanceof CancelledError || r instanceof JobTimeoutError) this.#left++;
    });
    this.#open.set(key, b);
    this.#all.add(b);
    const close = (e?: unknown) => {
      b.closed = true;
      if (this.#open.get(key) === b) this.#open.delete(key);
      this.#all.delete(b);
      const why = e instanceof Error ? e : new Error('the shared batch ended before this board');
      for (const s of b.solves) b.end(s, why);
    };
    this.#queue.run(() => this.#run(b, proc), b.stop.signal).then(() => close(), close);
    return b;
  }

  /** The batch's refilled run, a pass a turn of the event loop, until no solve has a row. */
  async #run(b: Batch, proc: SJDProcess): Promise<void> {
    b.running = true;
    for (const s of b.solves) this.#seat(b, s);
    const anchors = tidy(() => b.model.anchors.forward().detach()); // [K, d]
    const o = sudoku.refillOptions(b.model, proc, anchors, b.settings);
    const classify = o.classifier;
    o.classifier = (y, t, committed) => {
      this.#passes++;
      this.#rows += y.size(0); // y [rows, L, d]
      return classify(y, t, committed);
    };
    const run = refillSteps(o, b, 'none');
    try {
      for (;;) {
        await turn();
        const r = run.next();
        if (r.done) {
          r.value.tokens.dispose();
          r.value.y.dispose();
          return;
        }
      }
    } finally {
      b.closed = true; // at once: a solve that comes now starts another batch
      run.return(undefined as never);
      anchors.dispose();
    }
  }
}
