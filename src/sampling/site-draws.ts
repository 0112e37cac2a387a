// Draws at the sites that need them (so that sampling runs at the network's speed): a step's
// categorical destinations only where a site commits (a few per cent of the sites a step on a fine
// grid), and the reverse SDE's Gaussian noise only where a site is active (a committed site does
// not move). The other sites get zeros, which no sampler reads: commitSites takes a destination
// only where a site jumps, and every move keeps committed sites where they are. The law of what is
// read is unchanged; the generator's stream is shorter. The noise is drawn in float32
// (docs/design.md §4, "nowhere else"): no hazard ratio or quadrature reads it, it enters the
// float64 state as one term of the move, and libtorch draws float32 normals about 4x faster than
// float64 ones (vectorised Box-Muller), the largest share of a step outside the network passes.
import { type Tensor, zeros } from '../torch/index.js';
import type { StepRandom } from './step-random.js';

/** The flat indices [n] int64 of the true sites of mask [B, L] bool. */
export function siteIndices(mask: Tensor): Tensor {
  return mask.flatten().nonzero().flatten(); // [n]
}

/**
 * Tokens chosen at the sites of `at` [B, L] bool only: `choose(idx)` gives the tokens [n] int64
 * of the sites idx [n] (flat indices into [B * L]; not called when there are none) -> [B, L]
 * int64, 0 elsewhere.
 */
export function chooseAt(at: Tensor, choose: (idx: Tensor) => Tensor): Tensor {
  const idx = siteIndices(at); // [n]
  const out = zeros([at.numel], 'int64'); // [B * L]
  if (idx.size(0) === 0) return out.view(at.shape);
  return out.scatter(0, idx, choose(idx)).view(at.shape);
}

/** The rows idx [n] of x [B, L, ...] flattened to [B * L, ...]: [n, ...]. */
export function sitesOf(x: Tensor, idx: Tensor): Tensor {
  return x.flatten(0, 1).indexSelect(0, idx);
}

/**
 * N(0, I) float32 noise [B, L, d] at the sites of `at` [B, L] bool, 0 elsewhere: each row's
 * active sites' draws in row order (randnRows), so a generator keyed by row gives a row the same
 * noise whatever the other rows hold; a run's generator, one stream in that order.
 */
export function normalAt(at: Tensor, d: number, gen: StepRandom): Tensor {
  const idx = siteIndices(at); // [n]
  const n = idx.size(0);
  if (n === at.numel) return gen.randn([...at.shape, d], 'float32'); // every site: the same draws
  const out = zeros([at.numel, d], 'float32'); // [B * L, d]
  if (n === 0) return out.view([...at.shape, d]);
  const counts = at.sum(-1).toArray() as number[]; // [B] active sites a row
  const xi = gen.randnRows(counts, [d], 'float32'); // [n, d], row-major as idx
  return out.scatter(0, idx.unsqueeze(1).expand([n, d]), xi).view([...at.shape, d]);
}
