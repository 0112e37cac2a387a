// Samplers by name (as torchdiffeq's solvers): each a pure step function the driver loops,
// with the classifier evaluations it spends per step. A grid sampler steps every row along
// one time grid; an adaptive one puts each row at its own time and stops it when it is done.

import type { SJDProcess } from '../process/index.js';
import { adaptiveStep } from './adaptive-step.js';
import { confidenceStep } from './confidence-step.js';
import { mdlmStep } from './mdlm-step.js';
import { sjdStep } from './sjd-step.js';
import type { AdaptiveStepFn, StepFn } from './types.js';

/** `maskedOnly`: the sampler runs the masked preset only (MDLM's). */
export type Sampler =
  | { kind?: 'grid'; step: StepFn; nfePerStep: number; maskedOnly?: boolean }
  | { kind: 'adaptive'; step: AdaptiveStepFn; nfePerStep: number; maskedOnly?: boolean };

export const samplers = new Map<string, Sampler>([
  ['sjd', { step: sjdStep, nfePerStep: 1 }],
  ['mdlm', { step: mdlmStep, nfePerStep: 1, maskedOnly: true }],
  ['confidence', { step: confidenceStep, nfePerStep: 2 }],
  ['adaptive', { kind: 'adaptive', step: adaptiveStep, nfePerStep: 1 }],
]);

export function registerSampler(name: string, sampler: Sampler): void {
  samplers.set(name, sampler);
}

export function getSampler(name: string): Sampler {
  const s = samplers.get(name);
  if (!s) throw new Error(`unknown sampler '${name}' (known: ${[...samplers.keys()].join(', ')})`);
  return s;
}

/** The sampler of an unconditional task: MDLM's ancestral sampler for the masked preset, else Alg. 2. */
export function defaultSampler(proc: SJDProcess): string {
  return proc.config.kernel === 'mask' ? 'mdlm' : 'sjd';
}

/** The registered samplers that can run `proc` (those for the masked preset only need it). */
export function samplersFor(proc: SJDProcess): string[] {
  const masked = proc.config.kernel === 'mask';
  return [...samplers].filter(([, s]) => masked || !s.maskedOnly).map(([name]) => name);
}
