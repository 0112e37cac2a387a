// Training the autoregressive baselines of tab:sudoku_schedule_ablations (Shah et al. 2024):
// the causal decoder (model/causal-decoder.ts) by next-token cross-entropy on the blanks of each
// board written in its order (order.ts, sequence.ts), with the Sudoku size's network and
// optimiser (presets.ts: width, depth, heads, AdamW, warm-up and cosine, clip, EMA, batch), its
// MLP width set where asked so that its parameter count matches a diffusion network's
// (matchedMlpHidden), and the comparison's compute precision, so that the comparison gives every
// model the same budget. Boards are augmented by the size's
// symmetries (symmetry.ts), each board's order taken after the symmetry (the solver runs on the
// augmented puzzle). A run folder as the trainer's (train/run-folder.ts: config.json,
// checkpoint/ with state.json, metrics.csv), resumed exactly from its checkpoint: each step's
// draws come from a generator keyed by (seed, step). The EMA network is evaluated during
// training on held-out puzzles by greedy decoding (decode.ts); takeoff is the first evaluation
// that solves a board, as the trainer's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CausalDecoder, type CausalDecoderConfig } from '../../../model/causal-decoder.js';
import { atPrecision, type Precision } from '../../../model/precision.js';
import { AdamW, crossEntropy, type Tensor, TorchGenerator, tidy } from '../../../torch/index.js';
import { loadCheckpoint, saveCheckpoint } from '../../../train/checkpoint.js';
import {
  EMA,
  learningRate,
  MetricsLog,
  optimiseStep,
  runState,
  type TrainHooks,
} from '../../../train/index.js';
import { loadOptimState, saveOptimState } from '../../../train/optim-state.js';
import { RUN_FILES, type RunState } from '../../../train/run-folder.js';
import { makeDir, writeJsonAtomic } from '../../../util/atomic.js';
import { scoreBoards } from '../metrics.js';
import { SUDOKU_SIZES } from '../presets.js';
import { type Board, CELLS } from '../puzzle/board.js';
import { type Augment, applySymmetry, drawBoardSymmetries } from '../symmetry.js';
import type { SudokuPairs } from '../task.js';
import { DECODE_BATCH, decodeGreedy } from './decode.js';
import { ORDERS, type OrderName } from './order.js';
import { IGNORE, sequenceBatch } from './sequence.js';

/** Held-out puzzles decoded at each evaluation during training (as the trainer's Sudoku runs). */
export const AR_EVAL_SIZE = 200;

const ROW_MAJOR = Array.from({ length: CELLS }, (_, i) => i);

export interface AutoregressiveRun {
  size: string; // SUDOKU_SIZES
  order: OrderName;
  seed: number;
  steps: number;
  evalEvery?: number; // default: the size's
  augment: Augment;
  mlpHidden?: number; // the blocks' MLP width (default: the size's; matchedMlpHidden)
  precision?: Precision; // the network's compute precision (absent: float32)
}

/** The causal decoder of a Sudoku size: its width, depth, heads and MLP (dense attention). */
export function arNetworkConfig(size: string, mlpHidden?: number): CausalDecoderConfig {
  const s = SUDOKU_SIZES[size];
  if (!s) throw new Error(`sudoku: no size '${size}'`);
  const m = s.model;
  return {
    sites: CELLS,
    classes: 9,
    width: m.width,
    depth: m.depth,
    heads: m.heads,
    mlpHidden: mlpHidden ?? m.mlpHidden,
    dropout: m.dropout,
  };
}

/**
 * The MLP width that gives a Sudoku size's causal decoder `target` parameters, or the nearest
 * (the count is linear in the width: two decoders measure its slope).
 */
export function matchedMlpHidden(size: string, target: number): number {
  const count = (h: number) =>
    tidy(() => new CausalDecoder(arNetworkConfig(size, h), new TorchGenerator(0)).numParameters());
  const h0 = arNetworkConfig(size).mlpHidden;
  const p0 = count(h0);
  const slope = count(h0 + 1) - p0;
  return Math.max(1, Math.round(h0 + (target - p0) / slope));
}

/** The board pairs of a batch, each moved by its own symmetry (`augment`) drawn from `gen`. */
function augmented(
  pairs: SudokuPairs,
  idx: number[],
  augment: Augment,
  gen: TorchGenerator,
): { puzzles: Board[]; solutions: Board[] } {
  const puzzles = idx.map((i) => pairs.puzzles[i]!);
  const solutions = idx.map((i) => pairs.solutions[i]!);
  if (augment === 'none') return { puzzles, solutions };
  const syms = drawBoardSymmetries(idx.length, gen).map((s) =>
    augment === 'digits' ? { ...s, src: ROW_MAJOR } : s,
  );
  return {
    puzzles: puzzles.map((p, b) => applySymmetry(p, syms[b]!)),
    solutions: solutions.map((p, b) => applySymmetry(p, syms[b]!)),
  };
}

/** Board and cell accuracy of `net`'s greedy answers to the first `n` held-out puzzles. */
export function evaluateAutoregressive(
  net: CausalDecoder,
  held: SudokuPairs,
  order: OrderName,
  n = AR_EVAL_SIZE,
  precision?: Precision,
): { board_accuracy: number; cell_accuracy: number } {
  const puzzles = held.puzzles.slice(0, n);
  const s = scoreBoards(
    puzzles,
    held.solutions.slice(0, n),
    decodeGreedy(net, puzzles, order, DECODE_BATCH, precision).boards,
  );
  return { board_accuracy: s.solve_rate, cell_accuracy: s.cell_accuracy };
}

/** The EMA network of an autoregressive run folder (its latest checkpoint) and its precision. */
export function loadAutoregressive(dir: string): { net: CausalDecoder; precision?: Precision } {
  const config = JSON.parse(readFileSync(join(dir, RUN_FILES.config), 'utf8')) as {
    network: CausalDecoderConfig;
    precision?: Precision;
  };
  const net = new CausalDecoder(config.network, new TorchGenerator(0));
  net.loadStateDict(loadCheckpoint(dir, ['ema']).tensors.ema!);
  return { net: net.eval(), precision: config.precision };
}

/** The run's config as its folder records it; a folder holding another run's is refused. */
function claimConfig(dir: string, run: AutoregressiveRun) {
  const { mlpHidden, precision, ...rest } = run;
  // the precision is written only when not float32, so that a float32 run's config is as before
  const config = {
    kind: 'autoregressive',
    ...rest,
    ...(precision && precision !== 'float32' ? { precision } : {}),
    network: arNetworkConfig(run.size, mlpHidden),
  };
  const configPath = join(dir, RUN_FILES.config);
  makeDir(dir);
  if (existsSync(configPath)) {
    const saved = readFileSync(configPath, 'utf8');
    if (saved !== `${JSON.stringify(config, null, 2)}\n`)
      throw new Error(`${dir} holds a run of another configuration; choose another --out`);
  } else writeJsonAtomic(configPath, config);
  return config;
}

/** AdamW with decay on the matrices but the embedding tables; each parameter's name. */
function arOptimiser(net: CausalDecoder, size: (typeof SUDOKU_SIZES)[string]) {
  const named = net.namedParameters();
  const isTable = (k: string) =>
    k.startsWith('previous_') || k.startsWith('next_') || k === 'backbone.pos.weight';
  const decays = ([k, p]: (typeof named)[number]) => p.ndim >= 2 && !isTable(k);
  const decayed = named.filter(decays).map(([, p]) => p);
  const others = named.filter((e) => !decays(e)).map(([, p]) => p);
  const opt = new AdamW([{ params: decayed }, { params: others, weightDecay: 0 }], {
    lr: size.lr.lr,
    weightDecay: size.weightDecay,
  });
  return { opt, names: new Map(named.map(([k, p]) => [p, k])) };
}

/** One step of teacher forcing on a batch drawn (and augmented) by the step's own generator. */
function arStep(
  net: CausalDecoder,
  opt: AdamW,
  run: AutoregressiveRun,
  train: SudokuPairs,
  step: number,
  rate: number,
): number {
  const size = SUDOKU_SIZES[run.size]!;
  const gen = new TorchGenerator(run.seed * 1_000_003 + step);
  const idx = gen.randint(0, train.puzzles.length, [size.batch]).toArray();
  const { puzzles, solutions } = augmented(train, idx, run.augment, gen);
  const orders = puzzles.map((p) => ORDERS[run.order](p));
  return optimiseStep(
    () => {
      const b = sequenceBatch(puzzles, solutions, orders);
      const logits = atPrecision(run.precision, () => net.forward(b.order, b.previous)); // [B, 81, 9]
      return crossEntropy(logits.reshape([-1, 9]), b.target.reshape([-1]), {
        ignoreIndex: IGNORE,
      });
    },
    opt,
    { lr: rate, clip: size.clip },
  );
}

/** An autoregressive run being trained: its parts and its loop state. */
interface ArRun {
  dir: string;
  run: AutoregressiveRun;
  data: { train: SudokuPairs; held: SudokuPairs };
  hooks: TrainHooks;
  net: CausalDecoder;
  evalNet: CausalDecoder;
  opt: AdamW;
  names: Map<Tensor, string>;
  ema: EMA;
  metrics: MetricsLog;
  s: RunState;
}

/** Restores the run's checkpoint, if it has one. */
function restoreAr(r: ArRun): void {
  if (r.s.step === 0) return void r.hooks.log?.(`training ${r.dir}`);
  const ck = loadCheckpoint(r.dir, ['model', 'ema', 'optimizer']);
  r.net.loadStateDict(ck.tensors.model!);
  r.ema.load(ck.tensors.ema!);
  const steps = ck.state.optimSteps as Record<string, number>;
  loadOptimState(r.opt, r.names, { tensors: ck.tensors.optimizer!, steps });
  r.metrics.truncateAfter(r.s.step);
  r.hooks.log?.(`${r.dir}: resumed at step ${r.s.step}`);
}

function saveAr(r: ArRun): void {
  const o = saveOptimState(r.opt, r.names);
  saveCheckpoint(r.dir, {
    tensors: { model: r.net.stateDict(), ema: r.ema.stateDict(), optimizer: o.tensors },
    state: { ...r.s, optimSteps: o.steps },
  });
}

/** Evaluates the EMA weights; notes the takeoff and logs the line. */
function evaluateAr(r: ArRun): Record<string, number> {
  r.evalNet.loadStateDict(r.ema.stateDict());
  const { held } = r.data;
  const evals = evaluateAutoregressive(r.evalNet, held, r.run.order, AR_EVAL_SIZE, r.run.precision);
  r.s.lastEval = evals;
  if (r.s.takeoff === null && evals.board_accuracy! > 0) r.s.takeoff = r.s.step;
  r.hooks.log?.(
    `step ${r.s.step} eval board_accuracy ${evals.board_accuracy!.toFixed(4)} cell_accuracy ${evals.cell_accuracy!.toFixed(4)}`,
  );
  return evals;
}

/**
 * Trains (or resumes) the run in `dir` to its end on `train`, evaluating on `held`; false when
 * stopped before it (hooks.stopAfter).
 */
export function trainAutoregressive(
  dir: string,
  run: AutoregressiveRun,
  data: { train: SudokuPairs; held: SudokuPairs },
  hooks: TrainHooks = {},
): boolean {
  const size = SUDOKU_SIZES[run.size]!;
  const config = claimConfig(dir, run);
  const net = new CausalDecoder(config.network, new TorchGenerator(run.seed));
  const { opt, names } = arOptimiser(net, size);
  const ema = new EMA(net, size.ema);
  const metrics = new MetricsLog(dir, ['board_accuracy', 'cell_accuracy']);
  const evalNet = new CausalDecoder(config.network, new TorchGenerator(0)).eval();
  const s = runState(dir);
  const r: ArRun = { dir, run, data, hooks, net, evalNet, opt, names, ema, metrics, s };
  restoreAr(r);
  const lr = { ...size.lr, total: run.steps };
  const evalEvery = run.evalEvery ?? size.evalEvery;
  let window: number[] = [];
  let since = Date.now();
  for (let taken = 0; s.step < run.steps; taken++) {
    if (hooks.stopAfter !== undefined && taken >= hooks.stopAfter) {
      saveAr(r);
      return false;
    }
    const rate = learningRate(lr, s.step);
    const loss = arStep(net, opt, run, data.train, s.step, rate);
    s.step++;
    ema.update(s.step);
    window.push(loss);
    hooks.progress?.(s.step, run.steps, { loss, tokensPerS: 0 });
    const evalNow = s.step % evalEvery === 0 || s.step === run.steps;
    if (s.step % size.logEvery === 0 || evalNow) {
      const evals = evalNow ? evaluateAr(r) : {};
      const seconds = (Date.now() - since) / 1000;
      const meanLoss = window.reduce((a, b) => a + b, 0) / window.length;
      const tokensPerS = (window.length * size.batch * CELLS) / Math.max(seconds, 1e-9);
      metrics.append(s.step, { loss: meanLoss, lr: rate, tokens_per_s: tokensPerS }, evals);
      window = [];
      since = Date.now();
    }
    if (s.step % size.checkpointEvery === 0 || s.step === run.steps) saveAr(r);
  }
  return true;
}
