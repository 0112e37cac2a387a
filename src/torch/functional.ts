// Free functions over tensors: joins (cat, stack, where, einsum) and the network ops (linear,
// embedding, layer_norm, conv2d, group_norm, cross_entropy, dropout, ...) as single libtorch calls
// (docs/design.md §3), plus grad mode. The factories that make tensors are factories.ts's.
import { type HandleOrScalar, native } from './native.js';
import type { TorchGenerator } from './random.js';
import { type Operand, type Reduction, Tensor } from './tensor.js';

const h = (x: Operand): HandleOrScalar => (x instanceof Tensor ? x.handle : x);

export function cat(ts: Tensor[], dim = 0): Tensor {
  return new Tensor(
    native.cat(
      ts.map((t) => t.handle),
      dim,
    ),
  );
}
export function stack(ts: Tensor[], dim = 0): Tensor {
  return new Tensor(
    native.stack(
      ts.map((t) => t.handle),
      dim,
    ),
  );
}
/** cond ? a : b, elementwise with broadcasting. */
export function where(cond: Tensor, a: Operand, b: Operand): Tensor {
  return new Tensor(native.where(cond.handle, h(a), h(b)));
}
export function einsum(equation: string, ts: Tensor[]): Tensor {
  return new Tensor(
    native.einsum(
      equation,
      ts.map((t) => t.handle),
    ),
  );
}

/** x [..., in] W^T [in, out] + b: weight [out, in], bias [out]. */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor | null): Tensor {
  return new Tensor(native.linear(x.handle, weight.handle, bias?.handle));
}
/** weight [K, d] looked up at int64 indices [...] -> [..., d]. */
export function embedding(weight: Tensor, indices: Tensor): Tensor {
  return new Tensor(native.embedding(weight.handle, indices.handle));
}
/**
 * A normalisation's input in its weight's dtype: under autocast (native.ts) a product hands
 * bfloat16 to a norm whose weights are float32, which libtorch 1.13's CPU autocast leaves to
 * fail; norms run in float32, as later PyTorch's autocast runs them.
 */
const inWeightDtype = (x: Tensor, weight?: Tensor | null) =>
  weight && x.dtype !== weight.dtype ? x.to(weight.dtype) : x;

export function layerNorm(
  x: Tensor,
  normalizedShape: number[],
  weight?: Tensor | null,
  bias?: Tensor | null,
  eps = 1e-5,
): Tensor {
  const xw = inWeightDtype(x, weight);
  return new Tensor(
    native.layer_norm(xw.handle, normalizedShape, weight?.handle, bias?.handle, eps),
  );
}

/** 2-D convolution: x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O] -> [N, O, H', W']. */
export function conv2d(
  x: Tensor,
  weight: Tensor,
  bias?: Tensor | null,
  o: { stride?: number; padding?: number; groups?: number } = {},
): Tensor {
  const stride = o.stride ?? 1;
  const padding = o.padding ?? 0;
  return new Tensor(
    native.conv2d(
      x.handle,
      weight.handle,
      bias?.handle,
      [stride, stride],
      [padding, padding],
      o.groups ?? 1,
    ),
  );
}
/** Group normalisation of x [N, C, ...] over `groups` groups of channels; weight, bias [C]. */
export function groupNorm(
  x: Tensor,
  groups: number,
  weight?: Tensor | null,
  bias?: Tensor | null,
  eps = 1e-5,
): Tensor {
  const xw = inWeightDtype(x, weight);
  return new Tensor(native.group_norm(xw.handle, groups, weight?.handle, bias?.handle, eps));
}
/** Nearest-neighbour upsampling x [N, C, H, W] -> [N, C, H', W']. */
export function upsampleNearest2d(x: Tensor, height: number, width: number): Tensor {
  return new Tensor(native.upsample_nearest2d(x.handle, [height, width]));
}
/** Average pooling x [N, C, H, W] with a square window of side k and stride k (default). */
export function avgPool2d(x: Tensor, k: number, stride = k): Tensor {
  return new Tensor(native.avg_pool2d(x.handle, [k, k], [stride, stride]));
}
/** Eigendecomposition of symmetric A [..., n, n]: eigenvalues [..., n] ascending, vectors as columns. */
export function eigh(a: Tensor): [Tensor, Tensor] {
  const [values, vectors] = native.linalg_eigh(a.handle);
  return [new Tensor(values), new Tensor(vectors)];
}

export interface CrossEntropyOptions {
  weight?: Tensor;
  reduction?: Reduction;
  ignoreIndex?: number;
  labelSmoothing?: number;
}
/** Cross-entropy of logits [N, K, ...] against int64 targets [N, ...] (libtorch's, fused with log_softmax). */
export function crossEntropy(
  logits: Tensor,
  target: Tensor,
  opts: CrossEntropyOptions = {},
): Tensor {
  return new Tensor(
    native.cross_entropy(
      logits.handle,
      target.handle,
      opts.weight?.handle,
      opts.reduction ?? 'mean',
      opts.ignoreIndex ?? -100,
      opts.labelSmoothing ?? 0,
    ),
  );
}

/** Inverted dropout with an explicit generator; identity when not training or p = 0. */
export function dropout(x: Tensor, p: number, training: boolean, gen: TorchGenerator): Tensor {
  if (!training || p === 0) return x;
  return new Tensor(native.dropout(x.handle, p, training, gen.handle));
}

/**
 * Global-norm gradient clipping (libtorch's clip_grad_norm_); returns the norm before clipping
 * as a 0-dim tensor (as PyTorch does: reading it is left to the caller, and on a GPU a read
 * waits for the device).
 */
export function clipGradNorm(params: Tensor[], maxNorm: number): Tensor {
  return new Tensor(
    native.clipGradNorm(
      params.map((p) => p.handle),
      maxNorm,
    ),
  );
}

/** Runs fn with autograd recording off (restored afterwards). */
export function noGrad<T>(fn: () => T): T {
  const prev = native.isGradEnabled();
  native.setGradEnabled(false);
  try {
    return fn();
  } finally {
    native.setGradEnabled(prev);
  }
}

export function isGradEnabled(): boolean {
  return native.isGradEnabled();
}
