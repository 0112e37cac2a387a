// Solving many puzzles on several cores: libtorch's intra-op threads scale poorly on the small
// passes of a Sudoku solve (two threads on one process: 9.0 boards/s on 512 no-guess puzzles; two
// one-thread processes: 14.5), so the chunks of a solve (tasks/sudoku/solve.ts solveChunks: `batch` puzzles
// each, solved with their retries) are handed to worker processes, each running libtorch on one
// thread, the next chunk to whichever is free. A board's answer does not depend on the chunk it
// is in, so the answer is the one solveSudoku gives in one process, whatever the number of workers.
// The workers load the model from where the caller did (the shipped one when `model` is undefined).
// A solve may be stopped (an AbortSignal: the commands' Ctrl-C): it ends within a sampler step, its
// workers killed and awaited, and answers the puzzles done before the stop (a prefix, whole
// chunks). Workers die with their parent: a worker turns the event loop between sampler steps, so
// it sees its IPC channel close and exits.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { getSampler } from '../../sampling/index.js';
import type { SudokuModelSource } from '../../tasks/sudoku/load.js';
import type { Board } from '../../tasks/sudoku/puzzle/board.js';
import { joinSolves, type SolveResult } from '../../tasks/sudoku/retry.js';
import { type SolveOptions, type SolvePart, solveChunks } from '../../tasks/sudoku/solve.js';
import { defaultSudokuBatch } from '../../tasks/sudoku/solve-defaults.js';
import { type PartialSolve, solveChunkInTurns } from './solve-in-turns.js';

/** A chunk for a worker: the model (its folder undefined: the shipped one), options and puzzles. */
export interface PoolJob {
  model: SudokuModelSource;
  options: SolveOptions;
  start: number;
  puzzles: Board[];
}

/** A worker's answer: the chunk's solve, or the one-line reason it failed. */
export type PoolReply = { start: number; result: SolveResult } | { error: string };

const WORKER = new URL('./solve-worker.js', import.meta.url);

/**
 * Batches' worth of boards a worker solves as one part (one refilled batch of an adaptive
 * sampler) before it reports and takes the next: several, so that refilling keeps the batch full
 * for most of a part, and few, so that the workers share the load at the end of a solve and
 * report progress as it goes. A grid sampler's part is its batch (it cannot be refilled).
 */
export const POOL_PART_BATCHES = 4;

/** A part's boards: POOL_PART_BATCHES batches for an adaptive sampler, one for a grid one. */
function partSize(o: SolveOptions): number {
  const batch = o.batch ?? defaultSudokuBatch();
  return getSampler(o.sampler).kind === 'adaptive' ? POOL_PART_BATCHES * batch : batch;
}

function checkWorkers(workers: number): void {
  if (!(Number.isInteger(workers) && workers >= 1))
    throw new Error(`workers must be a whole number >= 1, got ${workers}`);
}

/** The solves of the chunks done before the first one missing, joined, with their puzzle count. */
function prefixOf(parts: (SolveResult | undefined)[]): PartialSolve {
  // biome-ignore lint/complexity/useIndexOf: parts has holes, which indexOf skips
  const k = parts.findIndex((p) => p === undefined);
  const done = (k < 0 ? parts : parts.slice(0, k)) as SolveResult[];
  const joined = joinSolves(done);
  return { ...joined, done: joined.boards.length };
}

/** A worker process of one libtorch thread, answering PoolJobs (solve-worker.ts). */
const forkWorker = (): ChildProcess =>
  fork(WORKER, [], {
    env: { ...process.env, SJD_THREADS: '1' },
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });

/** The chunks handed to the workers one at a time, and their results in chunk order. */
class ChunkFeed {
  readonly parts: (SolveResult | undefined)[];
  #next = 0;
  done = 0;
  #boards = 0;

  constructor(
    readonly chunks: { start: number; puzzles: Board[] }[],
    readonly model: SudokuModelSource,
    readonly o: SolveOptions,
  ) {
    this.parts = new Array(chunks.length);
  }

  /** Sends the next chunk to `child`, if any is left. */
  give(child: ChildProcess): void {
    const chunk = this.chunks[this.#next++];
    if (!chunk) return;
    // (a callback stays here: it cannot cross to the worker)
    const options = { ...this.o, record: false, onStep: undefined, onBoard: undefined };
    const job: PoolJob = { model: this.model, options, ...chunk };
    child.send(job);
  }

  /** Keeps a worker's result; returns the boards done so far. */
  take(reply: { start: number; result: SolveResult }): number {
    const at = this.chunks.findIndex((c) => c.start === reply.start);
    this.parts[at] = reply.result;
    this.done++;
    this.#boards += this.chunks[at]!.puzzles.length;
    return this.#boards;
  }

  get finished(): boolean {
    return this.done === this.chunks.length;
  }
}

/**
 * Solves the chunks (solveChunks) with the model `model` names in `workers` processes of one
 * libtorch thread each: the same result as solveSudoku in one process (without a trajectory);
 * stopped by `stop`, the chunks done before the first unfinished one.
 */
async function solveInWorkers(
  model: SudokuModelSource,
  chunks: { start: number; puzzles: Board[] }[],
  o: SolveOptions,
  workers: number,
  stop?: AbortSignal,
  onBoards?: (done: number) => void,
): Promise<PartialSolve> {
  const feed = new ChunkFeed(chunks, model, o);
  const children: ChildProcess[] = [];
  const exits: Promise<unknown>[] = [];
  let onAbort = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      onAbort = () => resolve();
      if (stop?.aborted) return resolve();
      stop?.addEventListener('abort', onAbort, { once: true });
      const count = Math.min(workers, chunks.length);
      if (count === 0) resolve();
      for (let w = 0; w < count; w++) {
        const child = forkWorker();
        children.push(child);
        exits.push(once(child, 'exit').catch(() => {}));
        child.on('message', (reply: PoolReply) => {
          if ('error' in reply) return reject(new Error(reply.error));
          const boards = feed.take(reply); // (not inside onBoards?.(): skipped when it is absent)
          onBoards?.(boards);
          if (feed.finished) resolve();
          else feed.give(child);
        });
        child.on('exit', (code, signal) => {
          if (!feed.finished && !stop?.aborted)
            reject(new Error(`a solve worker stopped (${signal ?? `exit code ${code}`})`));
        });
        child.on('error', reject);
        feed.give(child);
      }
    });
  } finally {
    stop?.removeEventListener('abort', onAbort);
    // a stopped or failed solve kills its workers at once; either way none outlives the solve
    // biome-ignore lint/complexity/useIndexOf: parts has holes, which indexOf skips
    const signal = feed.parts.findIndex((p) => p === undefined) < 0 ? 'SIGTERM' : 'SIGKILL';
    for (const child of children) if (child.exitCode === null) child.kill(signal);
    await Promise.all(exits);
  }
  return prefixOf(feed.parts);
}

/** A loaded Sudoku model (load.ts loadSudokuModel). */
export interface LoadedSudoku {
  model: Network;
  process: SJDProcess;
}

/**
 * solveSudoku for a command: in `workers` processes when the puzzles fill more than one chunk
 * and more than one worker is asked for, else in this process with the model already loaded
 * (from `model`, whose folder is undefined for the shipped one), a turn of the event loop
 * between sampler steps.
 * The same boards either way; stopped by `stop` (within a sampler step), the puzzles done before
 * it (a prefix: whole chunks in workers, the boards settled before the first unsettled one here).
 */
export async function solvePuzzles(
  loaded: LoadedSudoku,
  model: SudokuModelSource,
  set: Board[] | SolvePart, // the puzzles (a part of a larger set: its boards keyed from its start)
  o: SolveOptions,
  workers: number,
  stop?: AbortSignal,
  onBoards?: (done: number) => void, // told the boards settled so far (in workers: after each chunk)
): Promise<PartialSolve> {
  checkWorkers(workers);
  const { start, puzzles } = Array.isArray(set) ? { start: 0, puzzles: set } : set;
  const chunks = solveChunks(puzzles, partSize(o)).map((c) => ({
    ...c,
    start: start + c.start,
  }));
  if (workers > 1 && chunks.length > 1)
    return solveInWorkers(model, chunks, o, workers, stop, onBoards);
  // one part: the whole set as one refilled batch, told each board as it settles
  let boards = 0;
  const onBoard = () => onBoards?.(++boards);
  return solveChunkInTurns(
    loaded.model,
    loaded.process,
    { start, puzzles },
    { ...o, onBoard },
    stop,
  );
}
