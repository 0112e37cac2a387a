// The network's compute precision (app:text8's training table: bf16): 'bfloat16' runs a forward
// pass's matrix products and convolutions in bfloat16 under autocast (src/torch/native.ts), with
// the weights, their gradients and the optimiser in float32 and the logits handed back in
// float32, so the process math after them (float64, docs/design.md §4) is what it was. Several
// times faster on CPUs with AVX-512 BF16 (docs/benchmarks.md); absent: float32 throughout.
import { autocast, type Tensor } from '../torch/index.js';

export type Precision = 'float32' | 'bfloat16';
export const PRECISIONS: readonly Precision[] = ['float32', 'bfloat16'];

/** A network config's precision, float32 when it names none. */
export const precisionOf = (model: { precision?: Precision }): Precision =>
  model.precision ?? 'float32';

/** What a report's header adds for a precision, after `sep`: nothing for float32. */
export const precisionNote = (precision: Precision | undefined, sep = ';') =>
  precision === 'bfloat16' ? `${sep} bfloat16 compute` : '';

/**
 * A network's config at `precision`: bfloat16 written into it, float32 left unwritten (the
 * default, so a float32 config reads as it did before the setting existed); undefined leaves
 * the config as it is.
 */
export function withPrecision<M extends { precision?: Precision }>(
  model: M,
  precision: Precision | undefined,
): M {
  if (precision === undefined) return model;
  const { precision: _, ...rest } = model;
  return (precision === 'float32' ? rest : { ...rest, precision }) as M;
}

/** fn()'s tensors computed at `precision`, handed back in float32. */
export function atPrecision<T extends Tensor | Tensor[]>(
  precision: Precision | undefined,
  fn: () => T,
): T {
  if (precision === undefined || precision === 'float32') return fn();
  const out = autocast(precision, fn);
  return (Array.isArray(out) ? out.map((x) => x.to('float32')) : out.to('float32')) as T;
}
