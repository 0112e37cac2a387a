// Solving a part of a set as a solve pool's worker does (solve-pool.ts): the part drained, or
// drained with a turn of the event loop between sampler steps so that a stop is seen within a
// step, answering the boards settled before the first unsettled one.
import { setImmediate as turn } from 'node:timers/promises';
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { drain } from '../../sampling/index.js';
import {
  emptySolve,
  type SolveOptions,
  type SolvePart,
  type SolveProgress,
  type SolveResult,
  solveSteps,
} from '../../tasks/sudoku/solve.js';

/** One part solved (a solve pool's unit of work): solveSteps drained, no trajectory. */
export function solveChunk(
  model: Network,
  proc: SJDProcess,
  chunk: SolvePart,
  o: SolveOptions,
): SolveResult {
  return drain(solveSteps(model, proc, chunk, o, 'none'), false);
}

/** A solve stopped part-way: the result over its first `done` puzzles (those settled in a row). */
export type PartialSolve = SolveResult & { done: number };

/** The boards of `p` settled before the first one that is not, as a solve of that prefix. */
function settledPrefix(p: SolveProgress): PartialSolve {
  const k = p.settled.indexOf(false);
  const done = k < 0 ? p.settled.length : k;
  const r = p.result;
  const boards = r.boards.slice(0, done);
  const problems = r.problems.slice(0, done);
  const attempts = r.attempts.slice(0, done);
  const solved = problems.filter((x) => x.length === 0).length;
  const firstSolved = problems.filter((x, n) => x.length === 0 && attempts[n] === 1).length;
  return { boards, problems, nfe: r.nfe.slice(0, done), attempts, solved, firstSolved, done };
}

/**
 * A part solved as solveChunk solves it, with a turn of the event loop between sampler steps, so
 * that a signal, a closed IPC channel or a timer is handled within a step (a fraction of a second)
 * rather than after the part (minutes); when `stop` is aborted between steps, the boards settled
 * before the first unsettled one.
 */
export async function solveChunkInTurns(
  model: Network,
  proc: SJDProcess,
  chunk: SolvePart,
  o: SolveOptions,
  stop?: AbortSignal,
): Promise<PartialSolve> {
  const progress: SolveProgress = { result: emptySolve(), settled: [] };
  const steps = solveSteps(model, proc, chunk, o, 'none', progress);
  try {
    for (;;) {
      if (stop?.aborted) return settledPrefix(progress);
      const r = steps.next();
      if (r.done) return { ...r.value, done: chunk.puzzles.length };
      await turn();
    }
  } finally {
    steps.return(undefined as never); // a stopped solve releases its tensors
  }
}
