// Configs of the sequences task: text's DiT (rotary positions, adaLN time conditioning) at its
// two CPU sizes (the tiny one widened), the length the data sets (sequence-set.ts), and text's
// process defaults: SJD with the full-band 1-D Gaussian W over the positions in their order
// (row-normalised, sigma_W = 1) on CANDI's rank schedule; `--process masked` (MDLM) and
// `--process hybrid` (CADD, W = I) as for every task.
import {
  type ConfigOptions,
  presetConfig,
  type TransformerConfig,
  type TransformerSize,
} from '../../train/index.js';
import { TEXT_PROCESS, TEXT_SIZES } from '../text/presets.js';

// text's sizes without their length (the data sets it); the tiny one wider, to learn a motif
const { length: _cpuLength, ...cpu } = TEXT_SIZES.cpu!;
const { length: _tinyLength, ...tiny } = TEXT_SIZES.tiny!;

export const SEQUENCE_SIZES: Record<string, TransformerSize> = {
  cpu: { ...cpu, batch: 64 },
  tiny: {
    ...tiny,
    model: { ...tiny.model, width: 64, depth: 2, heads: 4, mlpHidden: 128 },
    batch: 32,
    steps: 400,
    lr: { kind: 'constant', lr: 3e-3, warmup: 20, total: 400 },
    ema: 0.99,
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
