// Sudoku training configs (app:sudoku, docs/design.md §5): model and optimiser by size — the
// paper's (3 layers, width 384, 12 heads, AdamW 3e-4, 4k warm-up, cosine, 200k steps), cpu (this
// machine's recipe: 4 layers of width 128 whose heads see only a cell's 20 peers, boards augmented
// by the full symmetry group, AdamW 2e-3, 300-step warm-up, cosine over 16k steps of 128 boards)
// and tiny (tests) — and the process by the shared vocabulary (process/choice.ts): sjd with the
// constraint-graph W (sigma_W = 1.5) by default, hybrid (CADD, W = I), masked (MDLM). A network
// setting (SUDOKU_NETWORKS) overrides the size's network: `plain` is the paper's plain transformer
// of tab:sudoku_schedule_ablations (dense attention, no structure embeddings, one pass), which
// leaves the constraint graph to the process's W alone.

import type { AttentionKind } from '../../model/attention-pattern.js';
import {
  type ConfigOptions,
  type ProcessDefaults,
  presetConfig,
  type TransformerConfig,
  type TransformerSize,
} from '../../train/index.js';
import type { Augment } from './symmetry.js';

const anchors = { anchorDim: 64, anchors: 'learned' as const, structure: true };

export const SUDOKU_SIZES: Record<string, TransformerSize> = {
  paper: {
    model: {
      size: 'paper',
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
    model: {
      size: 'cpu',
      ...anchors,
      width: 128,
      depth: 4,
      heads: 4,
      mlpHidden: 512,
      dropout: 0,
      attention: 'peers',
    },
    batch: 128,
    steps: 16_000,
    lr: { kind: 'cosine', lr: 2e-3, warmup: 300, total: 16_000, minLr: 2e-4 },
    weightDecay: 0.01,
    clip: 1,
    ema: 0.999,
    timeSampling: 'antithetic',
    logEvery: 25,
    evalEvery: 1000,
    checkpointEvery: 100,
    augment: 'full',
  },
  tiny: {
    model: {
      size: 'tiny',
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

/** The task's process defaults: W is the constraint graph; linear VP noise. */
export const SUDOKU_PROCESS: ProcessDefaults = {
  process: 'sjd',
  blend: 'sudoku',
  bandwidth: 1.5,
  schedule: 'linear',
};

/** A network setting: the size's width, depth and optimiser, with this network around them. */
export interface SudokuNetwork {
  attention: AttentionKind;
  structure: boolean; // learned row, column and box embeddings added to the input
  loops: number;
  about: string;
}

/** The network settings by name (`--network`); absent, the size's own network. */
export const SUDOKU_NETWORKS: Record<string, SudokuNetwork> = {
  plain: {
    attention: 'dense',
    structure: false,
    loops: 1,
    about:
      "the paper's plain transformer (tab:sudoku_schedule_ablations): dense attention, no structure embeddings, one pass",
  },
};

/**
 * The network and data options of the Sudoku task (app:sudoku): a network setting, anchors,
 * attention over the constraint graph (attention-pattern.ts), loops, deep supervision,
 * augmentation. Each option given overrides the setting's, which overrides the size's.
 */
export interface SudokuOptions {
  network?: string; // SUDOKU_NETWORKS
  anchors?: 'learned' | 'frozen';
  attention?: AttentionKind;
  loops?: number;
  /** the cross-entropy at every loop, averaged (needs loops >= 2) */
  deepSupervision?: boolean;
  augment?: Augment;
}

export function sudokuConfig(o: ConfigOptions & SudokuOptions = {}): TransformerConfig {
  const task = { name: 'sudoku', label: 'Sudoku', sizes: SUDOKU_SIZES, defaults: SUDOKU_PROCESS };
  const c = presetConfig(task, () => ({ length: 81 }), o);
  const net = o.network === undefined ? undefined : SUDOKU_NETWORKS[o.network];
  if (o.network !== undefined && !net)
    throw new Error(
      `sudoku: no network setting '${o.network}' (${Object.keys(SUDOKU_NETWORKS).join(', ')})`,
    );
  const { attention, loops, ...rest } = c.model;
  const model: TransformerConfig['model'] = {
    ...rest,
    anchors: o.anchors ?? c.model.anchors,
    structure: net?.structure ?? c.model.structure,
  };
  const a = o.attention ?? net?.attention ?? attention ?? 'dense';
  if (a !== 'dense') model.attention = a;
  const n = o.loops ?? net?.loops ?? loops ?? 1;
  if (n !== 1) model.loops = n;
  const config = { ...c, model, augment: o.augment ?? c.augment ?? 'digits' };
  return o.deepSupervision ? { ...config, deepSupervision: true } : config;
}
