// Samplers by name (as torchdiffeq's solvers): each a pure step function the driver loops.
import { mdlmStep } from './mdlm-step.js';
import { sjdStep } from './sjd-step.js';
import type { StepFn } from './types.js';

export const samplers = new Map<string, StepFn>([
  ['sjd', sjdStep],
  ['mdlm', mdlmStep],
]);

export function registerSampler(name: string, step: StepFn): void {
  samplers.set(name, step);
}

export function getSampler(name: string): StepFn {
  const s = samplers.get(name);
  if (!s) throw new Error(`unknown sampler '${name}' (known: ${[...samplers.keys()].join(', ')})`);
  return s;
}
