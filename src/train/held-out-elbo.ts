// The held-out negative ELBO a task reports, in bits per token (prop:elbo-eta1, eq:lce, eq:lrb):
// L_CE + L_RB of process/elbo.ts, estimated on fixed held-out sequences at fixed antithetic times
// and noise, averaged over a few draws, divided by ln 2. For the masked process it is MDLM's bound
// (L_RB = 0 at w = 1, L_CE the time-weighted cross-entropy over masked sites), an upper bound on
// -log2 p(x0) a token. For hybrid and sjd it is the jump part of the bound: the score term
// L_score is left out (the networks train no score head), so it ranks those models' classifiers
// but is not a bound on their likelihood. It holds at eta = 1 only; other processes have none.
import type { Network } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import type { Tensor, TorchGenerator } from '../torch/index.js';
import { heldOutLossOf } from './held-out-loss.js';
import { elboLoss } from './sjd-loss.js';

/** Monte Carlo draws of (t, corruption) a held-out estimate averages. */
export const ELBO_DRAWS = 4;

/** Why `proc` has no ELBO of this kind, or undefined when it has one. */
export function elboUnavailable(proc: SJDProcess): string | undefined {
  if (proc.hazard.instant)
    return 'continuous diffusion (an instant hazard) has no jump part to bound';
  if (proc.config.kernel === 'vp' && proc.eta !== 1)
    return `the ELBO holds at eta = 1, and this process has eta = ${proc.eta}`;
  return undefined;
}

/**
 * x0 [N, L] int64 held-out tokens -> the negative ELBO (L_CE + L_RB) in bits a token, the mean
 * over `draws` seeded draws. `tokens`: how many of the N L positions are tokens (the rest padding
 * that encodes the lengths), so the bits of a whole sequence are shared over its real tokens.
 */
export function heldOutElboBits(
  model: Network,
  proc: SJDProcess,
  x0: Tensor,
  o: {
    tokens?: number;
    draws?: number;
    seed?: number;
    onDraw?: (k: number) => void; // told the draws done (a command's progress)
  } = {},
): number {
  const why = elboUnavailable(proc);
  if (why) throw new Error(`held-out ELBO: ${why}`);
  const draws = o.draws ?? ELBO_DRAWS;
  const seed = o.seed ?? 12345;
  let nats = 0; // a position
  const loss = (x: Tensor, t: Float64Array, g: TorchGenerator) => elboLoss(model, proc, x, t, g);
  for (let k = 0; k < draws; k++) {
    nats += heldOutLossOf(loss, proc.T, x0, seed + k, model.anchors.count);
    o.onDraw?.(k + 1);
  }
  const positions = x0.size(0) * x0.size(1);
  return ((nats / draws) * positions) / (o.tokens ?? positions) / Math.LN2;
}
