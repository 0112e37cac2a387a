// `sjd eval sudoku`: solve a puzzle file with solutions (its first --limit puzzles) across worker
// processes and score the answers: solve rate, cell accuracy, row/column/box validity and
// boards/s, then by difficulty class and by search-node bucket (--by-nodes times each bucket's
// solve on its own); --json ends with one line of the results. Ctrl-C stops the solve within a
// sampler step, and the scores are over the puzzles solved before it.
import type { Command } from 'commander';
import { precisionOf, sampling, sudoku } from '../../index.js';
import * as lab from '../../lab/index.js';
import { EXIT_INTERRUPTED, interruptible } from '../interrupt.js';
import { group, int } from '../options.js';
import { heartbeat } from '../progress.js';
import { printScores, type SudokuEval } from './eval-report.js';
import {
  loadModelOf,
  modelSource,
  type SamplerOpts,
  samplerOptions,
  solveOptions,
  workersOf,
} from './sampler-flags.js';

type EvalOpts = SamplerOpts & { data: string; limit?: number; json?: boolean; byNodes?: boolean };

/**
 * A solve of many puzzles: across worker processes (lab.sudoku.solvePuzzles), stopped by `stop`,
 * saying every few seconds how many boards are done (the solve turns the event loop between its
 * steps, and the workers run apart, so the heartbeat's timer fires).
 */
async function solveMany(
  o: SamplerOpts,
  loaded: lab.sudoku.LoadedSudoku,
  puzzles: sudoku.Board[],
  stop?: AbortSignal,
) {
  const beat = heartbeat(`solving ${puzzles.length} puzzles`, (boards) => `${boards} boards done`);
  try {
    return await lab.sudoku.solvePuzzles(
      loaded,
      modelSource(o),
      puzzles,
      solveOptions(o),
      workersOf(o),
      stop,
      (done) => beat.update(done),
    );
  } finally {
    beat.stop();
  }
}

/**
 * Every puzzle solved, or each search-node bucket on its own (`buckets`: each puzzle's), until
 * Ctrl-C: the puzzles done (in order), the result aligned with all of them, the seconds taken.
 */
async function solveAll(
  o: EvalOpts,
  loaded: lab.sudoku.LoadedSudoku,
  puzzles: sudoku.Board[],
  buckets: string[],
) {
  const stop = interruptible('the evaluation');
  const solve = (ps: sudoku.Board[]) => solveMany(o, loaded, ps, stop.signal);
  const t0 = performance.now();
  let grouped: lab.sudoku.GroupedSolve | undefined;
  let whole: lab.sudoku.PartialSolve | undefined;
  try {
    if (o.byNodes) grouped = await lab.sudoku.solveGrouped(puzzles, buckets, solve);
    else whole = await solve(puzzles);
  } finally {
    stop.release();
  }
  const seconds = (performance.now() - t0) / 1000;
  const done = grouped?.done ?? Array.from({ length: whole!.done }, (_, i) => i);
  return { done, result: grouped?.result ?? whole!, seconds, bucketSeconds: grouped?.seconds };
}

/** Says how far an interrupted evaluation got (exit 130); false when it solved no puzzle. */
function noteInterrupted(done: number, total: number): boolean {
  if (done === total) return true;
  process.exitCode = EXIT_INTERRUPTED;
  if (done === 0) {
    console.error('sjd: interrupted before the first batch of puzzles was solved');
    return false;
  }
  console.error(
    `sjd: interrupted after ${done} of ${total} puzzles; the scores below are over those ${done}`,
  );
  return true;
}

/**
 * The scores of the puzzles done: overall, by difficulty class and by search-node bucket
 * (`allNodes`: each puzzle's search nodes).
 */
function scoreSolve(
  o: EvalOpts,
  all: sudoku.SudokuPairs,
  allNodes: number[],
  solved: Awaited<ReturnType<typeof solveAll>>,
): SudokuEval {
  const { done, result: full } = solved;
  const pick = <T>(xs: readonly T[]): T[] => done.map((i) => xs[i]!);
  const pairs = { puzzles: pick(all.puzzles), solutions: pick(all.solutions) };
  const nodes = pick(allNodes);
  const r = {
    ...full,
    boards: pick(full.boards),
    problems: pick(full.problems),
    nfe: pick(full.nfe),
    attempts: pick(full.attempts),
  };
  const s = sudoku.scoreBoards(pairs.puzzles, pairs.solutions, r.boards);
  const { classes, source } = sudoku.difficultyClasses(o.data, all.puzzles, done);
  const { puzzles, solutions } = pairs;
  const byDifficulty = sudoku.scoreByDifficulty(puzzles, solutions, r.boards, classes, r.nfe);
  const byNodes = sudoku.scoreByNodes(
    { ...pairs, boards: r.boards, nfe: r.nfe, attempts: r.attempts },
    nodes,
  );
  for (const [b, sec] of Object.entries(solved.bucketSeconds ?? {}))
    byNodes[b]!.boards_per_s = byNodes[b]!.boards / sec;
  return { s, r, byDifficulty, byNodes, classSource: source, seconds: solved.seconds };
}

async function evalSudoku(o: EvalOpts): Promise<void> {
  const all = sudoku.loadPairs(o.data, o.limit);
  const loaded = loadModelOf(o);
  const allNodes = all.puzzles.map((p) => sudoku.countSearchNodes(p).nodes);
  const solved = await solveAll(o, loaded, all.puzzles, allNodes.map(sudoku.nodeBucket));
  if (!noteInterrupted(solved.done.length, all.puzzles.length)) return;
  const e = scoreSolve(o, all, allNodes, solved);
  const commit = solveOptions(o).commit;
  const adaptive = sampling.getSampler(o.sampler).kind === 'adaptive';
  const out = {
    ...e.s,
    boards_per_s: e.s.boards / e.seconds,
    seconds: e.seconds,
    sampler: o.sampler,
    precision: precisionOf(loaded.config.model),
    ...(adaptive ? { commit } : {}),
    rules: o.rules,
    retries: o.retries,
    remask: o.remask === true,
    first_attempt_solve_rate: e.r.firstSolved / e.r.boards.length,
    retried: sudoku.retriedBoards(e.r.attempts),
    nfe: o.nfe,
    ...sudoku.nfeSummary(e.r.nfe),
    by_difficulty: e.byDifficulty,
    difficulty_from: e.classSource,
    by_nodes: e.byNodes,
    model: loaded.source,
    data: o.data,
  };
  printScores(e, out, sudoku.samplerLabel(o.sampler, commit));
  if (o.json) console.log(JSON.stringify(out));
}

export function registerEval(program: Command): void {
  samplerOptions(
    group(program, 'eval', 'evaluate a model')
      .command('sudoku')
      .description('solve rate, cell accuracy, unit validity and boards/s on a puzzle file')
      .requiredOption('--data <file>', 'puzzles with solutions (.csv or .npy)')
      .option('--limit <n>', 'the first N puzzles', int(1, 10_000_000))
      .option(
        '--by-nodes',
        'solve each search-node bucket on its own, so that boards/s is measured per bucket',
      )
      .option('--json', 'end with one JSON line of the results'),
  ).action(evalSudoku);
}
