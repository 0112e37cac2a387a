// A token stream as a language-modelling task sees it (app:text8): training windows of L tokens
// drawn at uniform random starts, and the first n whole windows of a held-out stream for the
// evaluation. Characters (task.ts) and BPE tokens (tokens/token-task.ts) alike.
import { arange, keep, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';

/** Token ids as a typed array: characters' Int32Array, a token file's Uint16Array or Uint32Array. */
export type Ids = Int32Array | Uint16Array | Uint32Array;

/** The ids as int64 [n] on the default device. */
export const idsTensor = (ids: Ids): Tensor =>
  ids instanceof Uint32Array
    ? tensor(Int32Array.from(ids), [ids.length], 'int32').to('int64') // ids < 2^31
    : tensor(ids instanceof Uint16Array ? Int32Array.from(ids) : ids, [ids.length], 'int32').to(
        'int64',
      );

/** Random windows of L tokens of a training stream. */
export class Windows {
  readonly #ids: Tensor; // [N] int64
  readonly #offsets: Tensor; // [L] int64

  constructor(
    ids: Ids,
    readonly length: number,
    what: string,
  ) {
    if (ids.length < 2 * length)
      throw new Error(
        `${what}: the training split has ${ids.length}, fewer than two windows of ${length}; train with --length ${Math.floor(ids.length / 2)} or less, or on a larger corpus`,
      );
    this.#ids = keep(idsTensor(ids));
    this.#offsets = keep(arange(0, length));
  }

  /** x0 [size, L] int64: windows at uniform random starts. */
  batch(size: number, gen: TorchGenerator): Tensor {
    const N = this.#ids.size(0);
    const start = gen.randint(0, N - this.length + 1, [size]); // [B]
    const idx = start.unsqueeze(1).add(this.#offsets); // [B, L]
    return this.#ids.indexSelect(0, idx.reshape([-1])).reshape([size, this.length]);
  }
}

/** The first n whole windows of L held-out tokens: [min(n, N / L), L] int64. */
export function heldOutIds(ids: Ids, L: number, n: number, what: string): Tensor {
  const m = Math.min(n, Math.floor(ids.length / L));
  if (m === 0)
    throw new Error(
      `${what}: the held-out split has ${ids.length}, fewer than one window of ${L}; train with --length ${ids.length} or less, or make the corpus again holding out more, \`--hold-out ${2 * L}\` (sjd data text or data tokens; their default holds out 5% each for valid and test)`,
    );
  return idsTensor(ids.subarray(0, m * L) as Ids).reshape([m, L]);
}
