// What a stream sends for one sampler step (issue #15; the driver's TrajectoryStep in JSON):
// per site of the batch, the committed token (-1 while active), the last classifier pass's
// argmax and its tempered probability, and |y|; with the time, the step's index and the NFE
// spent so far. Probabilities are rounded to 3 decimals and norms to 2 (what the page shows).
import type { TrajectoryStep } from '../sample/index.js';

export interface StepEvent {
  step: number; // 0: the prior, k: after the k-th sampler step
  t: number; // the forward time (adaptive samplers: the board's)
  nfe: number; // classifier evaluations so far
  tokens: number[]; // [B * L] committed tokens, -1 where active
  argmax: number[]; // [B * L] the classifier's most probable token (-1 before its first pass)
  confidence: number[]; // [B * L] its probability
  yNorm: number[]; // [B * L] |y_i|
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function stepEvent(s: TrajectoryStep, step: number): StepEvent {
  return {
    step,
    t: round(s.t, 5),
    nfe: s.nfe,
    tokens: s.tokens,
    argmax: Array.from(s.argmax),
    confidence: Array.from(s.confidence, (p) => round(p, 3)),
    yNorm: Array.from(s.yNorm, (v) => round(v, 2)),
  };
}
