// The randomness a sampler step draws. A run's generator gives one stream for the whole batch
// (torch/random.ts: a row's draws then depend on the rows beside it). A RowKeyedRandom gives one
// stream a row, each from a generator seeded by the row's own key (the board, its attempt and its
// own step count: rowKey), so that a row's draws are the same whatever it is batched with. This
// is what lets a batch take in new boards as others finish and still give each board the result
// it gets alone. A draw whose leading dimension is the rows is split into per-row draws; draws of
// a count of sites a row (the reverse SDE's noise at the active sites) go through randnRows.
import { cat, type DType, randnByRow, type Tensor, TorchGenerator } from '../torch/index.js';

/** What a step draws from: a run's TorchGenerator, or a RowKeyedRandom. */
export interface StepRandom {
  rand(shape: number[], dtype?: DType, device?: string): Tensor;
  randn(shape: number[], dtype?: DType, device?: string): Tensor;
  multinomial(probs: Tensor, n: number, replacement?: boolean): Tensor;
  /** counts[r] draws of shape `tail` for row r, concatenated in row order: [sum, ...tail] */
  randnRows(counts: ArrayLike<number>, tail: number[], dtype?: DType): Tensor;
}

/** A row's key: the run's seed, the board's id, its attempt and its own step (-1: its prior). */
export function rowKey(seed: number, board: number, attempt: number, step: number): bigint {
  const M = 1_000_003n;
  return ((BigInt(seed) * M + BigInt(board)) * M + BigInt(attempt)) * M + BigInt(step + 2);
}

/** One stream a row: row r draws from a generator seeded by keys[r]. */
export class RowKeyedRandom implements StepRandom {
  readonly #gens: TorchGenerator[];

  constructor(keys: readonly bigint[]) {
    this.#gens = keys.map((k) => new TorchGenerator(k));
  }

  get rows(): number {
    return this.#gens.length;
  }

  #checkRows(shape: number[]): void {
    if (shape[0] !== this.#gens.length)
      throw new Error(
        `a draw keyed by row needs the rows first: shape [${shape}] for ${this.#gens.length} rows`,
      );
  }

  #split(shape: number[], draw: (g: TorchGenerator, rowShape: number[]) => Tensor): Tensor {
    this.#checkRows(shape);
    const rowShape = [1, ...shape.slice(1)];
    return cat(
      this.#gens.map((g) => draw(g, rowShape)),
      0,
    );
  }

  rand(shape: number[], dtype?: DType, device?: string): Tensor {
    return this.#split(shape, (g, s) => g.rand(s, dtype, device));
  }

  randn(shape: number[], dtype?: DType, device?: string): Tensor {
    this.#checkRows(shape);
    const ones = new Array<number>(shape[0]!).fill(1);
    return randnByRow(this.#gens, ones, shape.slice(1), dtype, device);
  }

  multinomial(probs: Tensor, n: number, replacement = false): Tensor {
    const rows = probs.size(0);
    if (probs.ndim !== 2 || rows !== this.#gens.length)
      throw new Error(`a draw keyed by row needs probs [rows, K]: [${probs.shape}]`);
    return cat(
      this.#gens.map((g, r) => g.multinomial(probs.narrow(0, r, 1), n, replacement)),
      0,
    );
  }

  randnRows(counts: ArrayLike<number>, tail: number[], dtype?: DType): Tensor {
    if (counts.length !== this.#gens.length)
      throw new Error(`${counts.length} counts for ${this.#gens.length} rows`);
    return randnByRow(this.#gens, counts, tail, dtype);
  }
}

/** A generator for step i of a grid run seeded `seed` (i = -1: its prior): step i is reproducible on its own. */
export function stepGenerator(seed: number, i: number): TorchGenerator {
  return new TorchGenerator(BigInt(seed) * 1_000_003n + BigInt(i) + 1n);
}
