// Committing sites: a jumping site takes its destination anchor and freezes there; every
// committed (and conditioned) site is put back exactly on its anchor (re-clamping). The state
// leaves in the anchors' dtype (state.ts stateDtype), whatever dtype a move promoted it to.
import { embedding, type Tensor, where } from '../torch/index.js';
import type { SamplerState } from './types.js';

export function commitSites(
  state: SamplerState,
  y: Tensor,
  jump: Tensor,
  dest: Tensor,
  anchors: Tensor,
): SamplerState {
  const committed = state.committed.logicalOr(jump); // [B, L]
  const tokens = where(jump, dest, state.tokens); // [B, L]
  const onAnchor = embedding(anchors, tokens.clamp(0, null)); // [B, L, d]
  return { y: where(committed.unsqueeze(-1), onAnchor, y).to(anchors.dtype), committed, tokens };
}
