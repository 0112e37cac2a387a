// What a stream sends for one sampler step (its type, StepEvent, is api-types.ts's): the driver's
// TrajectoryStep in JSON, with probabilities rounded to 3 decimals and norms to 2 (what the page
// shows).
import type { TrajectoryStep } from '../sampling/index.js';
import type { StepEvent } from './api-types.js';

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function stepEvent(s: TrajectoryStep, step: number): StepEvent {
  return {
    step,
    t: round(s.t, 5),
    nfe: s.nfe,
    tokens: s.tokens,
    argmax: Array.from(s.argmax),
    confidence: Array.from(s.confidence, (p) => round(p, 3)),
    y_norm: Array.from(s.yNorm, (v) => round(v, 2)),
  };
}
