// The SJD training objectives (alg:sjd-training): corrupt x0 at times t by Alg. 1, predict x0
// from (y, t), and either
//   - the cross-entropy over the unstuck, unconditioned positions (eq:classifier-loss; the
//     never-unstuck branch and the clues are the loss mask), their mean: sjdLoss (with deep
//     supervision, its mean over a looped transformer's loops); or
//   - the negative ELBO at eta = 1 without its score term (prop:elbo-eta1; process/elbo.ts),
//     L_CE + L_RB in nats a position: elboLoss. Its hazard weights are the network's learned ones
//     (learned-hazard.ts: the corruption draws with them, detached, and the bound's gradient
//     reaches them) or the process's fixed ones.
import { Denoiser, type Network } from '../model/network.js';
import { corrupt, elboTerms, type SJDProcess } from '../process/index.js';
import {
  crossEntropy,
  noGrad,
  type Tensor,
  type TorchGenerator,
  tensor,
  where,
} from '../torch/index.js';

/**
 * Alg. 1's draw and the classifier's logits over it: x0 [B, L] int64 at times t [B]; `w` [K]
 * replaces the process's hazard weights in the draw. With `everyLoop` (a looped transformer,
 * deep supervision) the logits after every loop, else the network's alone.
 */
function corruptAndClassify(
  model: Network,
  proc: SJDProcess,
  x0: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
  condition?: Tensor,
  w?: Tensor,
  everyLoop = false,
): { logits: Tensor[]; lossMask: Tensor } {
  const E = model.anchors.forward(); // [K, d]
  const { y, stuck, lossMask } = corrupt(proc, x0, E, t, gen, condition, w); // y [B, L, d]
  const tt = tensor(t, [t.length], 'float64').to('float32'); // [B]
  if (everyLoop && !(model instanceof Denoiser))
    throw new Error('deep supervision reads the loops of a transformer; this network has none');
  const logits = everyLoop
    ? (model as Denoiser).forwardEachLoop(y, tt, stuck)
    : [model.forward(y, tt, stuck)]; // [B, L, K] each
  return { logits, lossMask };
}

/**
 * eq:classifier-loss: the mean cross-entropy over the unstuck, unconditioned positions. With
 * `everyLoop`, deep supervision: the mean over the loops of a looped transformer of that
 * cross-entropy at each loop's output (the head read after every pass through the blocks, as
 * TRM and HRM supervise each recursion step), so every loop is trained to answer.
 */
export function sjdLoss(
  model: Network,
  proc: SJDProcess,
  x0: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
  condition?: Tensor,
  everyLoop = false,
): Tensor {
  const c = corruptAndClassify(model, proc, x0, t, gen, condition, undefined, everyLoop);
  const targets = where(c.lossMask, x0, -100).reshape([-1]); // [B L]
  const ce = (logits: Tensor) =>
    crossEntropy(logits.reshape([-1, logits.size(-1)]), targets, {
      ignoreIndex: -100,
      reduction: 'sum',
    });
  let total = ce(c.logits[0]!);
  for (const l of c.logits.slice(1)) total = total.add(ce(l));
  const n = c.lossMask.sum().clamp(1); // on the device: no host sync per step
  return total.div(c.logits.length > 1 ? n.mul(c.logits.length) : n);
}

/** The hazard weights w [K] float64 a network trains under: its learned ones, else the process's. */
function weightsOf(model: Network, proc: SJDProcess): Tensor {
  if ('hazard' in model && model.hazard) return model.hazard.weights();
  const K = model.anchors.count;
  return tensor(proc.anchorWeights(K), [K], 'float64');
}

export function elboLoss(
  model: Network,
  proc: SJDProcess,
  x0: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
  condition?: Tensor,
  ceWeight: 'w' | 'uniform' = 'w',
): Tensor {
  const w = weightsOf(model, proc); // [K] float64
  const c = corruptAndClassify(model, proc, x0, t, gen, condition, w);
  const logits = c.logits[0]!; // [B, L, K]
  const lossMask = c.lossMask;
  const r = elboTerms({
    logits,
    x0,
    unstuck: lossMask,
    t,
    T: proc.T,
    hazard: proc.hazard,
    w: w.to('float64', logits.device),
    ceWeight,
  });
  return r.ce.add(r.rb).to('float32');
}

/** The process a network samples under: with its learned hazard weights when it has them. */
export function deployed(model: Network, proc: SJDProcess): SJDProcess {
  if (!('hazard' in model && model.hazard)) return proc;
  const w = noGrad(() => model.hazard!.weights().toArray() as number[]);
  return proc.withAnchorWeights(w);
}
