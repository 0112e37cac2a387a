// Configs of the sequences task: text's DiT (rotary positions, adaLN time conditioning) at two CPU
// sizes, the length the data sets (sequence-set.ts), and text's process defaults: SJD with the
// full-band 1-D Gaussian W over the positions in their order (row-normalised, sigma_W = 1) on
// CANDI's rank schedule; `--process masked` (MDLM) and `--process hybrid` (CADD, W = I) as for
// every task.
import {
  type ConfigOptions,
  presetConfig,
  type TransformerConfig,
  type TransformerSize,
} from '../../train/index.js';
import { TEXT_PROCESS } from '../text/presets.js';

const dit = {
  anchorDim: 32,
  anchors: 'learned' as const,
  structure: false,
  conditioning: 'adaln' as const,
  rotary: true,
};
const optimiser = { weightDecay: 0, clip: 1, timeSampling: 'antithetic' as const };

export const SEQUENCE_SIZES: Record<string, TransformerSize> = {
  cpu: {
    model: { size: 'cpu', ...dit, width: 128, depth: 4, heads: 4, mlpHidden: 512, dropout: 0 },
    batch: 64,
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
      size: 'tiny',
      ...dit,
      anchorDim: 16,
      width: 64,
      depth: 2,
      heads: 4,
      mlpHidden: 128,
      dropout: 0,
    },
    batch: 32,
    steps: 400,
    lr: { kind: 'constant', lr: 3e-3, warmup: 20, total: 400 },
    ema: 0.99,
    ...optimiser,
    logEvery: 50,
    evalEvery: 200,
    checkpointEvery: 100,
  },
};

/** The task's process defaults: text's (SJD, the 1-D Gaussian W over positions, rank schedule). */
export const SEQUENCE_PROCESS = TEXT_PROCESS;

/** A run's config for sequences of length L. */
export function sequenceConfig(length: number, o: ConfigOptions = {}): TransformerConfig {
  const task = {
    name: 'sequences',
    label: 'sequences',
    sizes: SEQUENCE_SIZES,
    defaults: SEQUENCE_PROCESS,
  };
  return { ...presetConfig(task, () => ({ length }), o), length };
}
