// Text8 presets (app:text8, tab:text8-hparams). Processes: `mdlm` (masked), `cadd` (W = I, the
// CANDI/CADD hybrid) and `sjd` (full-band 1-D Gaussian W over positions, sigma_W in
// {0.5, 1, 1.5, 2, 2.5}), all with the log-linear hazard; cadd and sjd add CANDI's
// rank-degradation noise schedule (r_min 0.05, r_max 0.4, as the paper) unless asked for the
// linear VP schedule (with it the continuous coordinate gives tokens away by t ~ 0.5 and
// the cpu-sized CADD wrote no words after 1,500 steps: 3% valid words against MDLM's 35%). Sizes: the paper's DiT (about 8M
// parameters, batch 512, 40k steps, AdamW 1e-3 constant, clip 1, no weight decay, EMA 0.9999,
// antithetic time) and CPU-sized ones for this machine with the same optimiser (the EMA decay
// shortened to 0.999 for runs of a few thousand steps). The DiT encodes positions by rotary
// embeddings (learned absolute positions left the cpu model at the unigram loss for 800 steps).
import { RANK_TEXT8, VP_DEFAULT, type VPConfig } from '../../process/index.js';
import type { ProcessChoice, TrainConfig } from '../../train/trainer.js';

type Size = Omit<TrainConfig, 'seed' | 'process' | 'task'> & { length: number };

const dit = {
  anchorDim: 64,
  anchors: 'learned' as const,
  structure: false,
  conditioning: 'adaln' as const,
  rotary: true, // positions as in MDLM's DiT
};
const optimiser = { weightDecay: 0, clip: 1, timeSampling: 'antithetic' as const };

export const TEXT_SIZES: Record<string, Size> = {
  paper: {
    model: { name: 'paper', ...dit, width: 256, depth: 6, heads: 8, mlpHidden: 1024, dropout: 0 },
    length: 256,
    batch: 512,
    steps: 40_000,
    lr: { kind: 'constant', lr: 1e-3, warmup: 0, total: 40_000 },
    ema: 0.9999,
    ...optimiser,
    logEvery: 50,
    evalEvery: 2000,
    checkpointEvery: 500,
  },
  cpu: {
    model: { name: 'cpu', ...dit, width: 128, depth: 4, heads: 4, mlpHidden: 512, dropout: 0 },
    length: 256,
    batch: 32,
    steps: 3000,
    lr: { kind: 'constant', lr: 1e-3, warmup: 100, total: 3000 },
    ema: 0.999,
    ...optimiser,
    logEvery: 25,
    evalEvery: 500,
    checkpointEvery: 100,
  },
  tiny: {
    model: {
      name: 'tiny',
      ...dit,
      anchorDim: 16,
      width: 32,
      depth: 1,
      heads: 2,
      mlpHidden: 64,
      dropout: 0,
    },
    length: 64,
    batch: 8,
    steps: 20,
    lr: { kind: 'constant', lr: 1e-3, warmup: 5, total: 20 },
    ema: 0.9,
    ...optimiser,
    logEvery: 5,
    evalEvery: 10,
    checkpointEvery: 10,
  },
};

export const SIGMA_SWEEP = [0.5, 1, 1.5, 2, 2.5];
export const TEXT_PROCESSES = ['mdlm', 'cadd', 'sjd'] as const;

export const TEXT_SCHEDULES = ['rank', 'linear'] as const;

/** The continuous noise schedule of the hybrid processes (anchors of dimension d). */
export function textSchedule(schedule: string, anchorDim: number): VPConfig {
  if (schedule === 'rank') return { kind: 'rank', ...RANK_TEXT8, anchorDim, T: 1 };
  if (schedule === 'linear') return VP_DEFAULT;
  throw new Error(`unknown schedule '${schedule}' (known: ${TEXT_SCHEDULES.join(', ')})`);
}

export function textProcess(
  preset: string,
  o: { sigmaW?: number; schedule?: string; anchorDim: number },
): ProcessChoice {
  const vp = () => textSchedule(o.schedule ?? 'rank', o.anchorDim);
  switch (preset) {
    case 'mdlm':
      return { preset: 'masked' };
    case 'cadd':
      return { preset: 'hybrid', vp: vp() };
    case 'sjd': {
      const sigmaW = o.sigmaW ?? 1.5;
      if (!(sigmaW > 0))
        throw new Error(`--sigma-w must be > 0 for sjd (sigma 0 is cadd), got ${sigmaW}`);
      return { preset: 'sjd', kernel: 'gaussian1d', sigmaW, vp: vp() };
    }
    default:
      throw new Error(`unknown text preset '${preset}' (known: ${TEXT_PROCESSES.join(', ')})`);
  }
}

export function textConfig(
  size: string,
  preset: string,
  seed: number,
  o: { sigmaW?: number; steps?: number; schedule?: string } = {},
): TrainConfig & { length: number } {
  const s = TEXT_SIZES[size];
  if (!s)
    throw new Error(`unknown text size '${size}' (known: ${Object.keys(TEXT_SIZES).join(', ')})`);
  const total = o.steps ?? s.steps;
  return {
    ...s,
    task: 'text',
    seed,
    process: textProcess(preset, { ...o, anchorDim: s.model.anchorDim }),
    steps: total,
    lr: { ...s.lr, total },
  };
}
