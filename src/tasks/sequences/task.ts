// Sequences over an alphabet as a training task: random training rows of L tokens (sequence-set.ts),
// no clues. Evaluation: the EMA model's loss on the held-out rows at fixed times and corruption,
// the held-out negative ELBO in bits a symbol (prop:elbo-eta1, where the process has one), and how
// close a few samples are to the held-out sequences by the total variation between their
// 3-mer distributions (kmer.ts).
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import { keep, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';
import { elboUnavailable, heldOutElboBits } from '../../train/held-out-elbo.js';
import { heldOutLoss } from '../../train/held-out-loss.js';
import type { TaskShape, TrainConfig, TrainTask } from '../../train/index.js';
import { type Alphabet, decodeTokens, tokenCount } from '../common/alphabet.js';
import { kmerDistance } from './kmer.js';
import { sampleSequences } from './sample.js';
import type { SequenceSet } from './sequence-set.js';

/** The k of the evaluation's k-mer distance. */
export const EVAL_K = 3;

export interface SequenceTaskOptions {
  evalSamples: number;
  evalNfe: number;
}

/** What loading a sequences model needs: its length and alphabet (saved in its config). */
export function sequenceShape(
  config: Pick<TrainConfig, 'task' | 'length' | 'alphabet'>,
): TaskShape {
  const L = config.length;
  const a = config.alphabet;
  if (config.task !== 'sequences' || !(Number.isInteger(L) && L! > 0) || !a)
    throw new Error('not a sequences model config (no length or alphabet)');
  return { name: 'sequences', length: L!, classes: tokenCount(a) };
}

/** The rows [n * L] as strings. */
export const decodeRows = (rows: Int32Array, L: number, a: Alphabet): string[] =>
  Array.from({ length: rows.length / L }, (_, n) =>
    decodeTokens(rows.subarray(n * L, (n + 1) * L), a),
  );

export class SequenceTask implements TrainTask {
  readonly name = 'sequences';
  readonly evalMetrics = ['valid_loss', 'elbo_bits', 'kmer_tv'];
  readonly length: number;
  readonly classes: number;
  readonly dataHash: string;
  readonly #train: Tensor; // [N, L] int64
  readonly #valid: Tensor; // [M, L] int64
  readonly #reference: string[]; // the held-out sequences
  readonly #tokens: number; // their symbols (PADs left out)

  constructor(
    readonly set: SequenceSet,
    readonly opts: SequenceTaskOptions,
  ) {
    const L = set.length;
    this.length = L;
    this.classes = tokenCount(set.alphabet);
    this.dataHash = set.hash;
    this.#train = keep(tensor(set.train, [set.train.length / L, L], 'int32').to('int64'));
    this.#valid = keep(tensor(set.valid, [set.valid.length / L, L], 'int32').to('int64'));
    this.#reference = decodeRows(set.valid, L, set.alphabet);
    this.#tokens = this.#reference.reduce((s, r) => s + Array.from(r).length, 0);
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor } {
    const rows = gen.randint(0, this.#train.size(0), [size]); // [B]
    return { x0: this.#train.indexSelect(0, rows) };
  }

  evaluate(model: Network, proc: SJDProcess, step: number): Record<string, number> {
    const valid_loss = heldOutLoss(model, proc, this.#valid);
    const elbo: Record<string, number> = elboUnavailable(proc)
      ? {}
      : { elbo_bits: heldOutElboBits(model, proc, this.#valid, { tokens: this.#tokens }) };
    const samples = sampleSequences(model, proc, this.set.alphabet, {
      n: this.opts.evalSamples,
      nfe: this.opts.evalNfe,
      seed: step,
    });
    return { valid_loss, ...elbo, kmer_tv: kmerDistance(samples, this.#reference, EVAL_K) };
  }
}
