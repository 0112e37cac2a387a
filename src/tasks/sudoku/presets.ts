// Named Sudoku training presets: the paper's model and optimiser (app:sudoku, DESIGN.md §5)
// and CPU-sized ones for this machine; the process is chosen separately (CADD: W = I; SJD:
// the constraint graph, sigma_W = 1.5).
import type { ProcessChoice, TrainConfig } from '../../train/trainer.js';

type Preset = Omit<TrainConfig, 'seed' | 'process' | 'task'>;

const anchors = { anchorDim: 64, anchors: 'learned' as const, structure: true };

export const SUDOKU_PRESETS: Record<string, Preset> = {
  paper: {
    model: {
      name: 'paper',
      ...anchors,
      width: 384,
      depth: 3,
      heads: 12,
      mlpHidden: 1536,
      dropout: 0,
    },
    batch: 128,
    steps: 200_000,
    lr: { kind: 'cosine', lr: 3e-4, warmup: 4000, total: 200_000, minLr: 3e-5 },
    weightDecay: 0.01,
    clip: 1,
    ema: 0.9999,
    timeSampling: 'uniform',
    logEvery: 50,
    evalEvery: 2000,
    checkpointEvery: 500,
  },
  cpu: {
    model: { name: 'cpu', ...anchors, width: 128, depth: 4, heads: 4, mlpHidden: 512, dropout: 0 },
    batch: 128,
    steps: 8000,
    lr: { kind: 'cosine', lr: 1e-3, warmup: 200, total: 8000, minLr: 1e-4 },
    weightDecay: 0.01,
    clip: 1,
    ema: 0.999,
    timeSampling: 'antithetic',
    logEvery: 25,
    evalEvery: 250,
    checkpointEvery: 100,
  },
  tiny: {
    model: {
      name: 'tiny',
      ...anchors,
      anchorDim: 16,
      width: 32,
      depth: 1,
      heads: 2,
      mlpHidden: 64,
      dropout: 0,
    },
    batch: 16,
    steps: 20,
    lr: { kind: 'constant', lr: 1e-3, warmup: 5, total: 20 },
    weightDecay: 0.01,
    clip: 1,
    ema: 0.9,
    timeSampling: 'antithetic',
    logEvery: 5,
    evalEvery: 10,
    checkpointEvery: 10,
  },
};

export const SUDOKU_KERNELS: Record<string, ProcessChoice> = {
  identity: { preset: 'hybrid' }, // CADD, (W, eta) = (I, 1)
  sudoku: { preset: 'sjd', kernel: 'sudoku', sigmaW: 1.5 }, // SJD, constraint graph
  masked: { preset: 'masked' }, // MDLM baseline
};

export function sudokuConfig(
  preset: string,
  kernel: string,
  seed: number,
  o: { steps?: number; evalEvery?: number } = {},
): TrainConfig {
  const p = SUDOKU_PRESETS[preset];
  if (!p)
    throw new Error(
      `unknown Sudoku preset '${preset}' (known: ${Object.keys(SUDOKU_PRESETS).join(', ')})`,
    );
  const process = SUDOKU_KERNELS[kernel];
  if (!process)
    throw new Error(
      `unknown kernel '${kernel}' (known: ${Object.keys(SUDOKU_KERNELS).join(', ')})`,
    );
  const total = o.steps ?? p.steps;
  return {
    ...p,
    task: 'sudoku',
    seed,
    process,
    steps: total,
    lr: { ...p.lr, total },
    evalEvery: o.evalEvery ?? p.evalEvery,
  };
}
