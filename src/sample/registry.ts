// Samplers by name (as torchdiffeq's solvers): each a pure step function the driver loops,
// with the classifier evaluations it spends per step.
import { confidenceStep } from './confidence-step.js';
import { mdlmStep } from './mdlm-step.js';
import { sjdStep } from './sjd-step.js';
import type { StepFn } from './types.js';

export interface Sampler {
  step: StepFn;
  nfePerStep: number;
}

export const samplers = new Map<string, Sampler>([
  ['sjd', { step: sjdStep, nfePerStep: 1 }],
  ['mdlm', { step: mdlmStep, nfePerStep: 1 }],
  ['confidence', { step: confidenceStep, nfePerStep: 2 }],
]);

export function registerSampler(name: string, sampler: Sampler): void {
  samplers.set(name, sampler);
}

export function getSampler(name: string): Sampler {
  const s = samplers.get(name);
  if (!s) throw new Error(`unknown sampler '${name}' (known: ${[...samplers.keys()].join(', ')})`);
  return s;
}
