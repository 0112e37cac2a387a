// What the routes of `sjd serve` share: the served models (served.ts), the job queue, the
// deadlines, the per-client stream limit and the shared batches of Sudoku's solves
// (sudoku-batch.ts).
import type { Deadlines } from './deadlines.js';
import type { JobQueue } from './job-queue.js';
import type { Served } from './served.js';
import type { StreamClients } from './stream-clients.js';
import type { SudokuBatches } from './sudoku-batch.js';

export interface ServeContext {
  served: Served;
  queue: JobQueue;
  deadlines: Deadlines;
  streams: StreamClients;
  sudokuBatches: SudokuBatches;
}

/**
 * A job route's first hook: with the queue full, 503 at once, before the body is read and
 * checked (a busy server spends next to nothing on the requests it refuses).
 */
export const refuseWhenFull = (ctx: ServeContext) => async () => {
  if (ctx.queue.full()) throw ctx.queue.refusal();
};
