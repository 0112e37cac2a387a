// The driver's checks of a run's options before it starts (driver.ts): every field a run needs,
// of the right kind (a caller of the library's `sample` without types gets one line naming each
// one wrong), the steps an NFE budget buys, and each row's own budget (adaptive samplers).

import type { SJDProcess } from '../process/index.js';
import { Tensor } from '../torch/index.js';
import type { Exclusion } from './exclusion.js';
import { GRID_KINDS, type GridKind } from './grid.js';
import type { SamplerName } from './sampler-names.js';
import type { Classifier, CommitRule } from './types.js';

/** One sampling run's settings: the process and classifier, the batch, sampler, budget and draws. */
export interface SampleOptions {
  process: SJDProcess;
  classifier: Classifier;
  anchors: Tensor; // [K, d]
  batch: number;
  length: number;
  sampler: SamplerName; // 'sjd' (Alg. 2) | 'mdlm' (masked preset) | registered names
  nfe: number; // model evaluations (steps = nfe / the sampler's NFE per step)
  /**
   * [B] each row's own NFE cap, at most `nfe` (adaptive samplers only): row b's last step, which
   * fills it, is its floor(budgets[b] / NFE per step)-th, so boards with different budgets left
   * share one batch (a retry round, retry.ts); absent, every row's cap is `nfe`
   */
  budgets?: readonly number[];
  grid: GridKind; // the time grid of the grid samplers (unused by the adaptive ones)
  temperature: number; // divides the classifier's logits
  topP: number; // nucleus truncation of every categorical draw; 1 keeps it whole
  seed: number;
  /** tokens [B, L] int64 and mask [B, L] bool of conditioned (clamped) positions */
  condition?: { tokens: Tensor; mask: Tensor };
  record?: boolean;
  /** the adaptive sampler's commit rule (its default when absent) */
  commit?: CommitRule;
  /** values the committed sites rule out (a task's hard constraints; exclusion.ts) */
  exclude?: Exclusion;
}

/**
 * The steps a budget buys: nfe / the sampler's NFE a step, at least one; the process's W must be
 * for the sampled length.
 */
export function stepsOf(o: SampleOptions, name: string, nfePerStep: number): number {
  const steps = Math.floor(o.nfe / nfePerStep);
  if (steps < 1)
    throw new Error(
      `an NFE budget of ${o.nfe} is less than one step of the ${name} sampler (${nfePerStep} NFE a step)`,
    );
  if (o.process.blend.L !== o.length)
    throw new Error(
      `the process's W is for length ${o.process.blend.L}, sampling length ${o.length}`,
    );
  return steps;
}

/**
 * [B] the step index at which each row's budget ends: steps - 1 for every row, or (adaptive
 * samplers) each row's own from `o.budgets`; refuses budgets of the wrong length, over `nfe`,
 * under one step, or given to a grid sampler with a cap other than `nfe`.
 */
export function lastSteps(
  o: SampleOptions,
  B: number,
  steps: number,
  nfePerStep: number,
  adaptive: boolean,
): Int32Array {
  const last = new Int32Array(B).fill(steps - 1);
  if (!o.budgets) return last;
  if (o.budgets.length !== B)
    throw new Error(`${o.budgets.length} row budgets for a batch of ${B} rows`);
  o.budgets.forEach((n, b) => {
    if (!(Number.isInteger(n) && n >= nfePerStep && n <= o.nfe))
      throw new Error(
        `a row's NFE budget must be a whole number from ${nfePerStep} (one step) to the run's ${o.nfe}, got ${n}`,
      );
    if (!adaptive && n !== o.nfe)
      throw new Error("row budgets other than the run's NFE need an adaptive sampler");
    last[b] = Math.floor(n / nfePerStep) - 1;
  });
  return last;
}

/**
 * Refuses options a run cannot start from (a caller of the library's `sample` without types),
 * in one line naming every field missing or of the wrong kind.
 */
export function checkSampleOptions(o: SampleOptions): void {
  const given: Record<string, unknown> = { ...o };
  const number = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  // the kinds alone: a number's range is the driver's to check, with its own message
  const wanted: [keyof SampleOptions, string, (v: unknown) => boolean][] = [
    ['process', 'an SJDProcess', (v) => typeof v === 'object' && v !== null && 'config' in v],
    ['classifier', 'a function (y, t, committed) => logits', (v) => typeof v === 'function'],
    ['anchors', 'a [K, d] Tensor', (v) => v instanceof Tensor && v.ndim === 2],
    ['batch', 'a number of rows', number],
    ['length', 'a number of sites', number],
    ['nfe', 'a number of classifier evaluations', number],
    ['seed', 'a number', number],
    ['sampler', 'a registered sampler name', (v) => typeof v === 'string'],
    ['temperature', 'a number', number],
    ['topP', 'a number', number],
    ['grid', `one of ${GRID_KINDS.join(', ')}`, (v) => GRID_KINDS.includes(v as GridKind)],
  ];
  const bad = wanted.filter(([k, , ok]) => !ok(given[k]));
  if (bad.length > 0)
    throw new Error(
      `sample: ${bad.map(([k, what]) => `${String(k)} (${what}) is ${given[k] === undefined ? 'missing' : 'not one'}`).join('; ')}`,
    );
}
