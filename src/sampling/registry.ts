// Samplers by name (as torchdiffeq's solvers): each a pure step function the driver loops,
// with the classifier evaluations it spends per step. A grid sampler steps every row along
// one time grid; an adaptive one puts each row at its own time and stops it when it is done.

import type { SJDProcess } from '../process/index.js';
import { adaptiveStep } from './adaptive-step.js';
import { ancestralStep } from './ancestral-step.js';
import { candiStep } from './candi-step.js';
import { confidenceStep } from './confidence-step.js';
import { mdlmStep } from './mdlm-step.js';
import { remaskStep } from './remask-step.js';
import type { SamplerName } from './sampler-names.js';
import { sjdStep, sjdStepWith } from './sjd-step.js';
import type { AdaptiveStepFn, StepFn } from './types.js';

/**
 * `maskedOnly`: the sampler runs the masked preset only (MDLM's); `gaussianOnly`: it needs the
 * Gaussian kernel (hybrid, sjd); `search`: it keeps a record of its commits to undo them
 * (remask-step.ts). `nfePerStep` is the most a step takes (a last step may take less).
 */
interface SamplerKinds {
  nfePerStep: number;
  /** the sampler keeps a record of its commits in the state (SearchState, remask-step.ts) */
  search?: boolean;
  maskedOnly?: boolean;
  gaussianOnly?: boolean;
}
export type Sampler =
  | ({ kind?: 'grid'; step: StepFn } & SamplerKinds)
  | ({ kind: 'adaptive'; step: AdaptiveStepFn } & SamplerKinds);

export const samplers = new Map<SamplerName, Sampler>([
  ['sjd', { step: sjdStep, nfePerStep: 1 }],
  ['sjd-refresh', { step: sjdStepWith(true), nfePerStep: 2 }],
  ['mdlm', { step: mdlmStep, nfePerStep: 1, maskedOnly: true }],
  ['confidence', { step: confidenceStep, nfePerStep: 2 }],
  ['adaptive', { kind: 'adaptive', step: adaptiveStep, nfePerStep: 1 }],
  ['adaptive-remask', { kind: 'adaptive', step: remaskStep, nfePerStep: 1, search: true }],
  ['ancestral', { step: ancestralStep(false, 'ancestral'), nfePerStep: 1 }],
  ['ancestral-refresh', { step: ancestralStep(true, 'ancestral-refresh'), nfePerStep: 2 }],
  ['candi', { step: candiStep(false, 'candi'), nfePerStep: 1, gaussianOnly: true }],
  ['candi-cache', { step: candiStep(true, 'candi-cache'), nfePerStep: 1, gaussianOnly: true }],
]);

/** Adds a sampler under a new name (a name already registered is refused: no silent swap). */
export function registerSampler(name: SamplerName, sampler: Sampler): void {
  if (samplers.has(name)) throw new Error(`registerSampler: a sampler named '${name}' exists`);
  if (!Number.isInteger(sampler.nfePerStep) || sampler.nfePerStep < 1)
    throw new Error(`registerSampler: ${name}'s nfePerStep must be a whole number >= 1`);
  samplers.set(name, sampler);
}

export function getSampler(name: string): Sampler {
  return samplers.get(samplerName(name))!;
}

/** A name read from text (a flag, a request, a saved file) as a registered sampler's. */
export function samplerName(name: string): SamplerName {
  if (!samplers.has(name as SamplerName))
    throw new Error(`unknown sampler '${name}' (known: ${[...samplers.keys()].join(', ')})`);
  return name as SamplerName;
}

/**
 * The sampler of an unconditional task: MDLM's ancestral sampler for the masked preset; the exact
 * ancestral step where anchors have hazards of their own at eta = 1 (frozen or learned hazard
 * weights), whose commit probabilities are exact per anchor, where Alg. 2's clock allocates by
 * rate ratios read at the start of a step (on the oracle toy with w = 0.5 / 1 / 2, total variation
 * 0.78, 0.35, 0.10 and 0.031 at NFE 8, 64, 256 and 1024 under Alg. 2, 0.041 and 0.013 at NFE 8 and
 * 32 under the exact step; test/sampler-exact.test.ts); else Alg. 2.
 */
export function defaultSampler(proc: SJDProcess): SamplerName {
  if (proc.config.kernel === 'mask') return 'mdlm';
  const w = proc.config.anchorWeights;
  const ownHazards = w?.some((wa) => wa !== w[0]);
  return ownHazards && proc.eta === 1 ? 'ancestral' : 'sjd';
}

/**
 * The registered samplers a task may use: every one, or, for a task without rules to undo by,
 * all but the searching ones (`withRules`: Sudoku's).
 */
export function samplerNames(withRules: boolean): SamplerName[] {
  return [...samplers].filter(([, s]) => withRules || !s.search).map(([name]) => name);
}

/**
 * The registered samplers that can run `proc` (those for the masked preset only need it); the
 * searching ones only when the task has rules to undo by (`withRules`: Sudoku's).
 */
export function samplersFor(proc: SJDProcess, withRules = false): SamplerName[] {
  const masked = proc.config.kernel === 'mask';
  return samplerNames(withRules).filter((name) => {
    const s = samplers.get(name)!;
    return masked ? !s.gaussianOnly : !s.maskedOnly;
  });
}
