// A solve pool's worker process (solve-pool.ts): loads the Sudoku model once (per folder asked
// for), then solves each chunk it is sent (solve.ts solveChunk) and sends the result back; a
// failure is sent as its one-line message. libtorch runs on the thread count the pool set
// (SJD_THREADS=1).
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { loadSudokuModel } from './load.js';
import { solveChunk } from './solve.js';
import type { PoolJob, PoolReply } from './solve-pool.js';

// The pool ends its workers; a Ctrl-C meant for the command lets the chunk at hand finish (the
// command stops after it), and a worker whose command is gone exits.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

let loaded: { from: string | undefined; model: Network; process: SJDProcess } | null = null;

process.on('message', (job: PoolJob) => {
  let reply: PoolReply;
  try {
    if (!loaded || loaded.from !== job.model)
      loaded = { from: job.model, ...loadSudokuModel(job.model) };
    const result = solveChunk(loaded.model, loaded.process, job, job.options);
    reply = { start: job.start, result };
  } catch (e) {
    reply = { error: (e as Error).message };
  }
  process.send!(reply);
});
