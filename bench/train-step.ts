// Training step of the token transformer (forward, cross-entropy, backward, clip, AdamW) in
// sjd against the same model in PyTorch, rounds interleaved, medians of per-step times:
// (a) 4 layers, width 128, batch 64 x 81; (b) the paper's Sudoku size: 3 layers, width 384,
// 12 heads, MLP 1536, batch 128 x 81, in float32 and with the forward pass in bfloat16
// (precision.ts), both against PyTorch's float32 step of the same run.
import { atPrecision } from '../src/model/precision.js';
import { TokenClassifier } from '../src/model/token-classifier.js';
import { AdamW, TorchGenerator } from '../src/torch/index.js';
import { crossEntropyStep } from '../src/train/step.js';
import { alternate, precisionRows } from './reference.js';
import { type BenchResult, register } from './registry.js';

interface StepConfig {
  vocab: number;
  classes: number;
  length: number;
  dim: number;
  depth: number;
  heads: number;
  mlpHidden: number;
  batch: number;
}

export const SMALL: StepConfig = {
  vocab: 10,
  classes: 10,
  length: 81,
  dim: 128,
  depth: 4,
  heads: 4,
  mlpHidden: 512,
  batch: 64,
};
export const SUDOKU: StepConfig = {
  vocab: 10,
  classes: 10,
  length: 81,
  dim: 384,
  depth: 3,
  heads: 12,
  mlpHidden: 1536,
  batch: 128,
};

/** One training step of the model of `c` at `precision` on fixed inputs, as a closure. */
export function tokenStep(c: StepConfig, precision?: 'bfloat16'): () => void {
  const gen = new TorchGenerator(0);
  const model = new TokenClassifier(c.vocab, c, gen);
  const opt = new AdamW(model.parameters(), { lr: 1e-3 });
  const x = gen.randint(0, c.vocab, [c.batch, c.length]);
  const y = gen.randint(0, c.classes, [c.batch, c.length]);
  return () => {
    crossEntropyStep(() => atPrecision(precision, () => model.forward(x)), y, opt, { clip: 1 });
  };
}

async function stepBench(c: StepConfig, rounds: number, block: number): Promise<BenchResult> {
  const r = await alternate(tokenStep(c), c, rounds, block);
  return { ...r, tokens_per_s: (c.batch * c.length * 1000) / r.sjd_ms };
}

register('train-step-small', () => stepBench(SMALL, 12, 6));
register('train-step-sudoku', () =>
  precisionRows((p) => tokenStep(SUDOKU, p), SUDOKU, 4, 3, {
    name: 'tokens_per_s',
    count: SUDOKU.batch * SUDOKU.length,
  }),
);
