// Text8-style character modelling as a training task (sec:exp-text8, app:text8): random
// windows of L characters from the training split, one token a symbol of the corpus's alphabet
// (text8's 27 by default), no clues; W the identity (CADD) or the full-band 1-D Gaussian over
// positions (SJD). Evaluation: the loss of the EMA model on fixed held-out windows at fixed
// times and corruption, the held-out negative ELBO in bits a character (prop:elbo-eta1; where
// the process has one), and the valid- and unique-word fractions of a few samples (Alg. 2 or
// MDLM ancestral, cosine grid).
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { keep, type Tensor, type TorchGenerator } from '../../torch/index.js';
import { elboUnavailable, heldOutElboBits } from '../../train/held-out-elbo.js';
import { heldOutLoss } from '../../train/held-out-loss.js';
import type { TaskShape, TrainConfig, TrainTask } from '../../train/index.js';
import { type Alphabet, TEXT8, tokenCount } from '../common/alphabet.js';
import { type Corpus, corpusHash, encode, tokenCounts } from './corpus.js';
import { TextScorer } from './metrics.js';
import { sampleText } from './sample.js';
import { textAlphabet } from './vocabulary.js';
import { heldOutIds, Windows } from './windows.js';

export interface TextTaskOptions {
  length: number; // L
  evalWindows: number; // held-out windows for the evaluation loss
  evalSamples: number; // samples for the word metrics
  evalNfe: number;
  evalTemperature: number;
}

/** What loading a text model needs: its sequence length and alphabet (saved in its config). */
export function textShape(
  config: Pick<TrainConfig, 'task' | 'alphabet' | 'tokenizer'> & { length?: number },
): TaskShape {
  const L = config.length;
  if (config.task !== 'text' || !(Number.isInteger(L) && L! > 0))
    throw new Error('not a text model config (no sequence length)');
  return {
    name: 'text',
    length: L!,
    classes: config.tokenizer?.vocab ?? tokenCount(textAlphabet(config)),
  };
}

/** The first n whole windows of L characters of held-out text, as tokens: [n, L] int64. */
export const heldOutTokens = (text: string, alphabet: Alphabet, L: number, n: number): Tensor =>
  heldOutIds(encode(text, alphabet), L, n, 'text: characters');

export class TextTask implements TrainTask {
  readonly name = 'text';
  readonly classes: number;
  readonly evalMetrics = ['valid_loss', 'elbo_bits', 'valid_words5', 'unique_words'];
  readonly dataHash: string;
  readonly length: number;
  readonly alphabet: Alphabet;
  readonly scorer: TextScorer;
  readonly #train: Windows;
  readonly #valid: Tensor; // [evalWindows, L] int64

  constructor(
    readonly corpus: Corpus,
    readonly opts: TextTaskOptions,
  ) {
    const L = opts.length;
    this.length = L;
    this.alphabet = corpus.alphabet ?? TEXT8;
    this.classes = tokenCount(this.alphabet);
    this.#train = new Windows(encode(corpus.train, this.alphabet), L, 'text: characters');
    this.#valid = keep(heldOutTokens(corpus.valid, this.alphabet, L, opts.evalWindows));
    this.scorer = new TextScorer(corpus.test);
    this.dataHash = corpusHash(corpus);
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor } {
    return { x0: this.#train.batch(size, gen) };
  }

  /** Mean cross-entropy of the model on the held-out windows, with fixed times and noise. */
  heldOutLoss(model: Network, proc: SJDProcess): number {
    return heldOutLoss(model, proc, this.#valid);
  }

  /** How often each token occurs in the training split (p0 of the hazard weights). */
  tokenCounts(): number[] {
    return tokenCounts(this.corpus.train, this.alphabet);
  }

  /** The held-out negative ELBO in bits a character, or undefined where the process has none. */
  heldOutElbo(model: Network, proc: SJDProcess): number | undefined {
    return elboUnavailable(proc) ? undefined : heldOutElboBits(model, proc, this.#valid);
  }

  evaluate(model: Network, proc: SJDProcess, step: number): Record<string, number> {
    const valid_loss = this.heldOutLoss(model, proc);
    const elbo_bits = this.heldOutElbo(model, proc);
    const { texts } = sampleText(model, proc, {
      n: this.opts.evalSamples,
      nfe: this.opts.evalNfe,
      temperature: this.opts.evalTemperature,
      seed: step,
      alphabet: this.alphabet,
    });
    const s = this.scorer.score(texts);
    const words = { valid_words5: s.valid_words5, unique_words: s.unique_words };
    return elbo_bits === undefined ? { valid_loss, ...words } : { valid_loss, elbo_bits, ...words };
  }
}
