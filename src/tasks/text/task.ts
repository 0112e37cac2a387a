// Text8-style character modelling as a training task (sec:exp-text8, app:text8): random
// windows of L characters from the training split, 27 tokens, no clues; W the identity (CADD)
// or the full-band 1-D Gaussian over positions (SJD). Evaluation: the loss of the EMA model
// on fixed held-out windows at fixed times and corruption, and the valid- and unique-word
// fractions of a few samples (Alg. 2 or MDLM ancestral, cosine grid).
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { arange, keep, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';
import { heldOutLoss } from '../../train/held-out-loss.js';
import type { TaskShape, TrainConfig, TrainTask } from '../../train/index.js';
import { type Corpus, corpusHash, encode, VOCAB } from './corpus.js';
import { TextScorer } from './metrics.js';
import { sampleText } from './sample.js';

export interface TextTaskOptions {
  length: number; // L
  evalWindows: number; // held-out windows for the evaluation loss
  evalSamples: number; // samples for the word metrics
  evalNfe: number;
  evalTemperature: number;
}

/** What loading a text model needs: its sequence length (saved in its config). */
export function textShape(config: Pick<TrainConfig, 'task'> & { length?: number }): TaskShape {
  const L = config.length;
  if (config.task !== 'text' || !(Number.isInteger(L) && L! > 0))
    throw new Error('not a text model config (no sequence length)');
  return {
    name: 'text',
    length: L!,
    classes: VOCAB,
  };
}

export class TextTask implements TrainTask {
  readonly name = 'text';
  readonly classes = VOCAB;
  readonly evalMetrics = ['valid_loss', 'valid_words5', 'unique_words'];
  readonly dataHash: string;
  readonly length: number;
  readonly scorer: TextScorer;
  readonly #train: Tensor; // [N] int64
  readonly #valid: Tensor; // [evalWindows, L] int64
  readonly #offsets: Tensor; // [L] int64

  constructor(
    readonly corpus: Corpus,
    readonly opts: TextTaskOptions,
  ) {
    const L = opts.length;
    this.length = L;
    if (corpus.train.length < 2 * L)
      throw new Error(
        `text: the training split has ${corpus.train.length} characters, fewer than 2 L = ${2 * L}`,
      );
    if (corpus.valid.length < L)
      throw new Error(
        `text: the valid split has ${corpus.valid.length} characters, fewer than L = ${L}`,
      );
    this.#train = keep(tensor(encode(corpus.train), [corpus.train.length], 'uint8').to('int64'));
    const v = encode(corpus.valid);
    const n = Math.min(opts.evalWindows, Math.floor(v.length / L));
    this.#valid = keep(tensor(v.subarray(0, n * L), [n, L], 'uint8').to('int64'));
    this.#offsets = keep(arange(0, L));
    this.scorer = new TextScorer(corpus.test);
    this.dataHash = corpusHash(corpus);
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor } {
    const N = this.#train.size(0);
    const start = gen.randint(0, N - this.length + 1, [size]); // [B]
    const idx = start.unsqueeze(1).add(this.#offsets); // [B, L]
    return { x0: this.#train.indexSelect(0, idx.reshape([-1])).reshape([size, this.length]) };
  }

  /** Mean cross-entropy of the model on the held-out windows, with fixed times and noise. */
  heldOutLoss(model: Network, proc: SJDProcess): number {
    return heldOutLoss(model, proc, this.#valid);
  }

  evaluate(model: Network, proc: SJDProcess, step: number): Record<string, number> {
    const valid_loss = this.heldOutLoss(model, proc);
    const { texts } = sampleText(model, proc, {
      n: this.opts.evalSamples,
      nfe: this.opts.evalNfe,
      temperature: this.opts.evalTemperature,
      seed: step,
    });
    const s = this.scorer.score(texts);
    return { valid_loss, valid_words5: s.valid_words5, unique_words: s.unique_words };
  }
}
