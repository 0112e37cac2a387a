// Seeded random draws (docs/design.md §4): one explicit CPU generator per run (libtorch's
// Philox/MT CPU generator; the same seed gives PyTorch's numbers), results moved to the
// requested device. Its state can be saved and restored for exact resume.
import { type GenHandle, native } from './native.js';
import { type DType, Tensor } from './tensor.js';

export class TorchGenerator {
  readonly handle: GenHandle;

  constructor(seed: number | bigint) {
    this.handle = native.newGenerator(typeof seed === 'bigint' ? seed : Math.trunc(seed));
  }

  /** Uniform [0, 1). */
  rand(shape: number[], dtype: DType = 'float32', device?: string): Tensor {
    return new Tensor(native.rand(shape, this.handle, dtype, device));
  }
  /**
   * Uniform [-bound, bound): rand(shape) * 2 bound - bound, the scaling in place (the same numbers
   * as out of place, with a third of the memory touched: a layer's initialisation).
   */
  uniform(shape: number[], bound: number): Tensor {
    return this.rand(shape)
      .mul_(2 * bound)
      .add_(-bound);
  }
  /** Standard normal. */
  randn(shape: number[], dtype: DType = 'float32', device?: string): Tensor {
    return new Tensor(native.randn(shape, this.handle, dtype, device));
  }
  /**
   * counts[r] standard normals of shape `tail` for each row r, one stream for all:
   * [sum counts, ...tail], the same numbers as randn of that shape (sampling/step-random.ts has
   * the keyed-by-row kind).
   */
  randnRows(counts: ArrayLike<number>, tail: number[], dtype: DType = 'float32'): Tensor {
    let n = 0;
    for (let r = 0; r < counts.length; r++) n += counts[r]!;
    return this.randn([n, ...tail], dtype);
  }
  /** Integers in [low, high), int64. */
  randint(low: number, high: number, shape: number[], device?: string): Tensor {
    return new Tensor(native.randint(low, high, shape, this.handle, device));
  }
  /** A random permutation of 0..n-1, int64. */
  randperm(n: number, device?: string): Tensor {
    return new Tensor(native.randperm(n, this.handle, device));
  }
  /** 0/1 draws with probabilities p (same dtype as p). */
  bernoulli(p: Tensor): Tensor {
    return new Tensor(native.bernoulli(p.handle, this.handle));
  }
  /** n category indices per row of probs [K] or [N, K] (unnormalised weights allowed), int64. */
  multinomial(probs: Tensor, n: number, replacement = false): Tensor {
    return new Tensor(native.multinomial(probs.handle, n, replacement, this.handle));
  }
  /** The generator's state (uint8 tensor) for checkpoints. */
  getState(): Tensor {
    return new Tensor(native.generatorGetState(this.handle));
  }
  setState(state: Tensor): void {
    native.generatorSetState(this.handle, state.handle);
  }
}

let fallback: TorchGenerator | null = null;

/** The process-wide generator used when none is passed (seed 0 until manualSeed). */
export function defaultGenerator(): TorchGenerator {
  fallback ??= new TorchGenerator(0);
  return fallback;
}

/** Re-seeds the process-wide default generator. */
export function manualSeed(seed: number): TorchGenerator {
  fallback = new TorchGenerator(seed);
  return fallback;
}

/**
 * Row r's counts[r] standard normals of shape `tail` from gens[r], concatenated in row order:
 * [sum counts, ...tail], the numbers gens[r].randn([counts[r], ...tail]) gives, in one call.
 */
export function randnByRow(
  gens: readonly TorchGenerator[],
  counts: ArrayLike<number>,
  tail: number[],
  dtype: DType = 'float32',
  device?: string,
): Tensor {
  return new Tensor(
    native.randnRows(
      gens.map((g) => g.handle),
      Array.from(counts),
      tail,
      dtype,
      device,
    ),
  );
}
