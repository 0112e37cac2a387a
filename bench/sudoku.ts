// Sudoku at the shipped settings (cpu preset, SJD kernel): training tokens/s of the full SJD
// step (corruption, forward, backward, AdamW) against the bare network step on clean inputs,
// and solving boards/s of the confidence policy (32 NFE) and of the adaptive samplers (the plain
// one on the model alone, and the defaults: the rules and the sampler that undoes what breaks
// them; the shipped model: its NFE per board depends on what the model is sure of; finished
// boards drop out) against the network passes of the same run (bench/reference.ts
// networkShare): ratios are the process's and the samplers' overhead; the adaptive one with the
// NFE it spent per board, and with the shipped retries beside; and a solve of 512 boards at the
// defaults across two one-thread worker processes against the same solve in this process; and
// the defaults with the network in bfloat16 against float32, in the same process.

import { solvePuzzles } from '../src/lab/sudoku/solve-pool.js';
import type { PrecisionSetting } from '../src/model/auto-precision.js';
import { sampleTimes } from '../src/process/index.js';
import type { SamplerName } from '../src/sampling/index.js';
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { loadSudokuModel } from '../src/tasks/sudoku/load.js';
import { sudokuConfig } from '../src/tasks/sudoku/presets.js';
import type { Board } from '../src/tasks/sudoku/puzzle/board.js';
import { generateByNodes } from '../src/tasks/sudoku/puzzle/by-nodes.js';
import { DEFAULT_RETRIES, type SolveResult } from '../src/tasks/sudoku/retry.js';
import { nfeSummary, solveSudoku } from '../src/tasks/sudoku/solve.js';
import {
  DEFAULT_SUDOKU_RULES,
  defaultSudokuBatch,
  defaultSudokuNfe,
  defaultSudokuSampler,
  sudokuSampling,
} from '../src/tasks/sudoku/solve-defaults.js';
import { SudokuTask } from '../src/tasks/sudoku/task.js';
import { AdamW, crossEntropy, full, TorchGenerator } from '../src/torch/index.js';
import { buildModel, buildProcess } from '../src/train/build.js';
import { sjdLoss } from '../src/train/sjd-loss.js';
import { optimiseStep } from '../src/train/step.js';
import { defaultAgainstFloat32, interleaved, networkShare } from './reference.js';
import { type BenchResult, type BenchRows, register } from './registry.js';

/** No-guess boards of the batching bench (and half as many that need guessing). */
const BATCHING_BOARDS = 512;

function setup() {
  const pairs = generatedPairs(300, 3);
  const task = new SudokuTask(pairs, pairs, {
    evalSize: 128,
    evalNfe: 32,
    evalSampler: 'confidence',
    augment: true,
  });
  const config = sudokuConfig({ size: 'cpu', process: 'sjd', blend: 'sudoku' });
  const gen = new TorchGenerator(0);
  const model = buildModel(task, config.model, gen);
  const proc = buildProcess(task, config.process);
  return { pairs, task, config, gen, model, proc };
}

register(
  'sudoku-train-step',
  (): BenchResult => {
    const { task, config, gen, model, proc } = setup();
    const opt = new AdamW(model.parameters(), { lr: 1e-3 });
    const B = config.batch;
    const step = (withProcess: boolean) => () => {
      optimiseStep(
        () => {
          const { x0, condition } = task.batch(B, gen);
          const t = sampleTimes(B, proc.T, 'antithetic', gen);
          if (withProcess) return sjdLoss(model, proc, x0, t, gen, condition);
          const E = model.anchors.forward();
          const logits = model.forward(
            E.indexSelect(0, x0.flatten()).view([B, 81, -1]),
            full([B], 0.5),
            condition,
          );
          return crossEntropy(logits.reshape([-1, 9]), x0.reshape([-1]));
        },
        opt,
        { clip: 1 },
      );
    };
    const r = interleaved(step(true), step(false), 6);
    return { ...r, tokens_per_s: (B * 81 * 1000) / r.sjd_ms };
  },
  'the bare network step on clean inputs',
);

register(
  'sudoku-solve-confidence-32nfe',
  (): BenchResult => {
    const { pairs, model, proc } = setup();
    model.eval();
    const puzzles = pairs.puzzles.slice(0, 128);
    const solve = () =>
      solveSudoku(model, proc, puzzles, {
        sampler: 'confidence' as const,
        nfe: 32,
        seed: 0,
        batch: 128,
      });
    const [r] = networkShare(model, solve, 3);
    return { ...r, boards_per_s: (128 * 1000) / r.sjd_ms };
  },
  'the network passes of the same run',
);

/** The boards of a solve that equal their solutions. */
const solvedBoards = (r: SolveResult, solutions: Board[]): number =>
  r.boards.filter((b, n) => b.every((d, i) => d === solutions[n]![i])).length;

/**
 * An adaptive sampler over 128 generated boards, one attempt and with the shipped retries, against
 * the network passes of the same runs, with the NFE each board took and the boards solved.
 */
function adaptiveSolveBench(sampler: SamplerName, rules: boolean): BenchResult {
  const { model, process: proc } = loadSudokuModel();
  const { puzzles, solutions } = generatedPairs(128, 3);
  const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0, batch: 128 };
  const once = { ...settings, retries: 0 }; // one attempt
  const [t, r] = networkShare(model, () => solveSudoku(model, proc, puzzles, once), 3);
  const { nfe_mean, nfe_max } = nfeSummary(r.nfe);
  const solved = (x: SolveResult) => solvedBoards(x, solutions);
  // The shipped settings retry the boards that break the rules (retry.ts), in the same way.
  const [withRetries, retried] = networkShare(
    model,
    () => solveSudoku(model, proc, puzzles, { ...settings, retries: DEFAULT_RETRIES }),
    1,
  );
  return {
    ...t,
    boards_per_s: (128 * 1000) / t.sjd_ms,
    // the classifier evaluations the boards needed over those the batch paid (passes x 128)
    batch_efficiency: nfe_mean / t.passes,
    nfe_mean,
    nfe_max,
    solved_of_128: solved(r),
    retries_ratio: withRetries.sjd_ms / withRetries.ref_ms,
    retries_boards_per_s: (128 * 1000) / withRetries.sjd_ms,
    retries_nfe_mean: nfeSummary(retried.nfe).nfe_mean,
    retries_solved_of_128: solved(retried),
  };
}

register(
  'sudoku-solve-adaptive',
  () => adaptiveSolveBench('adaptive', false),
  'the network passes of the same run (the model alone, --no-rules)',
);

register(
  'sudoku-solve-default',
  () => adaptiveSolveBench(defaultSudokuSampler(), DEFAULT_SUDOKU_RULES),
  'the network passes of the same run (the defaults: the rules, their searching sampler)',
);

register(
  'sudoku-solve-workers',
  async (): Promise<BenchResult> => {
    // 512 generated boards at the defaults in chunks of 128: two one-thread worker processes
    // (solve-pool.ts) against this process on all its threads; the same boards either way
    const { model, process: proc } = loadSudokuModel();
    const { puzzles } = generatedPairs(512, 3);
    const { sampler, rules } = sudokuSampling({});
    const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0, batch: 128 };
    let t0 = performance.now();
    const pooled = await solvePuzzles({ model, process: proc }, {}, puzzles, settings, 2);
    const sjd_ms = performance.now() - t0;
    t0 = performance.now();
    const alone = solveSudoku(model, proc, puzzles, settings);
    const ref_ms = performance.now() - t0;
    if (pooled.boards.some((b, n) => b.some((d, i) => d !== alone.boards[n]![i])))
      throw new Error('sudoku-solve-workers: the workers gave other boards than one process');
    return {
      sjd_ms,
      ref_ms,
      boards_per_s: (512 * 1000) / sjd_ms,
      one_process_boards_per_s: (512 * 1000) / ref_ms,
    };
  },
  `the same solve in this process on all its threads`,
);

/** The boards two solves answered alike: the same digits, NFE and attempts. */
function sameBoards(a: SolveResult, b: SolveResult): number {
  return a.boards.filter(
    (x, n) =>
      x.every((d, i) => d === b.boards[n]![i]) &&
      a.nfe[n] === b.nfe[n] &&
      a.attempts[n] === b.attempts[n],
  ).length;
}

/**
 * The refilled batch against the batch that waits for its slowest board (refill: false), in the
 * same run, at the defaults (sampler, rules, NFE cap, retries, batch size) on `puzzles`: wall time
 * (ratio: new over old), boards/s, batch efficiency (the boards' classifier evaluations over
 * passes x batch size), the sampler over its bare network passes, and the boards answered alike.
 */
function batchingRow(puzzles: Board[]): BenchResult {
  const { model, process: proc } = loadSudokuModel();
  const { sampler, rules } = sudokuSampling({});
  const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0 };
  const batch = defaultSudokuBatch();
  const solve = (refill: boolean) =>
    networkShare(model, () => solveSudoku(model, proc, puzzles, { ...settings, refill }), 1, false);
  const [old, oldR] = solve(false);
  const [now, nowR] = solve(true);
  const rowPasses = nowR.nfe.reduce((a, b) => a + b, 0);
  const n = puzzles.length;
  return {
    sjd_ms: now.sjd_ms,
    ref_ms: old.sjd_ms,
    boards: n,
    batch,
    boards_per_s: (n * 1000) / now.sjd_ms,
    old_boards_per_s: (n * 1000) / old.sjd_ms,
    speedup: old.sjd_ms / now.sjd_ms,
    batch_efficiency: rowPasses / (now.passes * batch),
    old_batch_efficiency: oldR.nfe.reduce((a, b) => a + b, 0) / (old.passes * batch),
    passes: now.passes,
    old_passes: old.passes,
    nfe_mean: rowPasses / n,
    sampler_over_passes: now.sjd_ms / now.ref_ms,
    old_sampler_over_passes: old.sjd_ms / old.ref_ms,
    solved: nowR.solved,
    old_solved: oldR.solved,
    same_boards: sameBoards(nowR, oldR),
  };
}

register(
  'sudoku-batching',
  (): BenchRows =>
    new Map([
      ['no-guess', batchingRow(generatedPairs(BATCHING_BOARDS, 3).puzzles)],
      [
        'guess',
        batchingRow(
          generateByNodes(BATCHING_BOARDS / 2, { minNodes: 1, seed: 101 }).map((g) => g.puzzle),
        ),
      ],
    ]),
  'the batch that waits for its slowest board (refill off), same boards and settings',
);

register(
  'sudoku-solve-auto',
  (): BenchResult => {
    // 512 generated no-guess boards at the defaults, the network at the default precision
    // (auto-precision.ts: bfloat16 where the CPU has it) against float32: rounds interleaved, the
    // same boards and draws; the solve rates beside
    const { puzzles, solutions } = generatedPairs(BATCHING_BOARDS, 3);
    const { sampler, rules } = sudokuSampling({});
    const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0 };
    const solved = (r: SolveResult) => solvedBoards(r, solutions) / r.boards.length;
    const at = (precision: PrecisionSetting) => {
      const { model, process: proc } = loadSudokuModel(undefined, precision);
      let last: SolveResult | undefined;
      return {
        run: () => {
          last = solveSudoku(model, proc, puzzles, settings);
        },
        solved: () => solved(last!),
      };
    };
    const runs = { auto: at('auto'), float32: at('float32') };
    const r = defaultAgainstFloat32(
      'sudoku',
      (p: PrecisionSetting) => runs[p as keyof typeof runs].run,
      { name: 'boards_per_s', count: BATCHING_BOARDS },
      2,
    );
    return { ...r, solved: runs.auto.solved(), float32_solved: runs.float32.solved() };
  },
  'the same solve with the network in float32',
);
