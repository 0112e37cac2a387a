// A solve pool's worker process (solve-pool.ts): loads the Sudoku model once (per folder and
// precision asked for), then solves each chunk it is sent (solve-in-turns.ts) and sends
// the result back; a failure is sent as its one-line message. libtorch runs on the thread count
// the pool set (SJD_THREADS=1). The event loop turns between sampler steps, so the worker exits
// within a step when its parent ends it (SIGTERM, SIGKILL) or is gone (the IPC channel closes).
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { loadSudokuModel } from '../../tasks/sudoku/load.js';
import { solveChunkInTurns } from './solve-in-turns.js';
import type { PoolJob, PoolReply } from './solve-pool.js';

// A Ctrl-C at the terminal reaches the whole process group: the command decides (it stops the
// pool), so the worker ignores it; it exits when told to or when its command is gone.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

let loaded: { from: string; model: Network; process: SJDProcess } | null = null;

process.on('message', async (job: PoolJob) => {
  let reply: PoolReply;
  try {
    const from = JSON.stringify(job.model);
    if (!loaded || loaded.from !== from)
      loaded = { from, ...loadSudokuModel(job.model.dir, job.model.precision) };
    const result = await solveChunkInTurns(loaded.model, loaded.process, job, job.options);
    reply = { start: job.start, result };
  } catch (e) {
    reply = { error: (e as Error).message };
  }
  if (!process.connected) process.exit(0);
  process.send!(reply);
});
