// The sampler state's tensors as one collection (types.ts SamplerState): the driver selects,
// replaces and frees a run's rows through these, whatever a sampler keeps beside y, the
// commitments and the tokens (a searching sampler's record of its commits, remask-step.ts).
import type { SJDProcess } from '../process/index.js';
import { type Tensor, zeros } from '../torch/index.js';
import type { SamplerState, SearchState } from './types.js';

/**
 * The dtype of a sampler's continuous state y and of the anchors it commits to (docs/design.md §4):
 * float32 at eta = 1 (closed form), where only the float32 network and the affine moves read y
 * (no quadrature, no hazard ratio: the moves' coefficients are formed in float64 and applied
 * once); float64 below, where the DHM quadrature reads ||y - alpha E(a)||^2 / v near v's floor.
 */
export function stateDtype(proc: SJDProcess): 'float32' | 'float64' {
  return proc.closedForm ? 'float32' : 'float64';
}

/** Every tensor of a state. */
export function stateTensors(s: SamplerState): Tensor[] {
  const { y, committed, tokens, search } = s;
  return search
    ? [y, committed, tokens, search.sure, search.order, search.tabu]
    : [y, committed, tokens];
}

/** The state with f applied to each of its tensors (with its counterpart in `other`, if given). */
export function mapState(
  s: SamplerState,
  f: (x: Tensor, other?: Tensor) => Tensor,
  other?: SamplerState,
): SamplerState {
  const out: SamplerState = {
    y: f(s.y, other?.y),
    committed: f(s.committed, other?.committed),
    tokens: f(s.tokens, other?.tokens),
  };
  if (s.search) {
    const o = other?.search;
    out.search = {
      sure: f(s.search.sure, o?.sure),
      order: f(s.search.order, o?.order),
      tabu: f(s.search.tabu, o?.tabu),
      undos: f(s.search.undos, o?.undos),
    };
  }
  return out;
}

/** The sureness conditioned sites carry in a search record: above any commit's, never undone. */
export const CONDITIONED = 2;

/** A fresh search record for a state whose committed sites [B, L] are conditioned, over K values. */
export function freshSearch(committed: Tensor, K: number): SearchState {
  const [B, L] = committed.shape as [number, number];
  return {
    sure: committed.to('float32').mul(CONDITIONED), // [B, L]
    order: zeros([B, L], 'int32'),
    tabu: zeros([B, L, K], 'int32'),
    undos: zeros([B, 1], 'int32'),
  };
}
