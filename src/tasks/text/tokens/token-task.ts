// Language modelling on a token corpus (token-corpus.ts) as a training task: random windows of L
// BPE tokens from the training split (windows.ts), the classes the tokenizer's vocabulary, no
// clues; the processes are text's (masked, hybrid with W = I, sjd with W over positions).
// Evaluation: the EMA model's loss on fixed held-out windows at fixed times and corruption, and
// the held-out negative ELBO in bits a token (prop:elbo-eta1; MDLM reports it as a perplexity
// bound, 2^bits), where the process has one. Word metrics are for characters (task.ts).
import type { Network } from '../../../model/network.js';
import type { SJDProcess } from '../../../process/index.js';
import { keep, type Tensor, type TorchGenerator } from '../../../torch/index.js';
import { elboUnavailable, heldOutElboBits } from '../../../train/held-out-elbo.js';
import { heldOutLoss } from '../../../train/held-out-loss.js';
import type { TrainTask } from '../../../train/index.js';
import { heldOutIds, Windows } from '../windows.js';
import type { TokenCorpus } from './token-corpus.js';
import type { TextTokenizer } from './tokenizer.js';

export interface TokenTaskOptions {
  length: number; // L, in tokens
  evalWindows: number; // held-out windows for the evaluation
}

export class TokenTextTask implements TrainTask {
  readonly name = 'text';
  readonly classes: number;
  readonly evalMetrics = ['valid_loss', 'elbo_bits'];
  readonly dataHash: string;
  readonly length: number;
  readonly tokenizer: TextTokenizer;
  readonly #train: Windows;
  readonly #valid: Tensor; // [evalWindows, L] int64

  constructor(
    readonly corpus: TokenCorpus,
    opts: TokenTaskOptions,
  ) {
    this.length = opts.length;
    this.tokenizer = corpus.tokenizer;
    this.classes = corpus.tokenizer.vocab;
    this.dataHash = corpus.hash;
    this.#train = new Windows(corpus.train, opts.length, 'text: tokens');
    this.#valid = keep(heldOutIds(corpus.valid, opts.length, opts.evalWindows, 'text: tokens'));
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor } {
    return { x0: this.#train.batch(size, gen) };
  }

  /** How often each token occurs in the training split (p0 of the hazard weights). */
  tokenCounts(): number[] {
    const counts = new Array<number>(this.classes).fill(0);
    for (const t of this.corpus.train) counts[t]!++;
    return counts;
  }

  /** The held-out negative ELBO in bits a token, or undefined where the process has none. */
  heldOutElbo(model: Network, proc: SJDProcess): number | undefined {
    return elboUnavailable(proc) ? undefined : heldOutElboBits(model, proc, this.#valid);
  }

  evaluate(model: Network, proc: SJDProcess): Record<string, number> {
    const valid_loss = heldOutLoss(model, proc, this.#valid);
    const elbo_bits = this.heldOutElbo(model, proc);
    return elbo_bits === undefined ? { valid_loss } : { valid_loss, elbo_bits };
  }
}
