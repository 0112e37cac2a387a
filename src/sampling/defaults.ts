// Sampling defaults, each defined once. SAMPLING_DEFAULTS is the library's; a task's spec holds
// its own (a SamplingDefaults object of the task's sampling file, spread from these), and every
// command, route and library call of the task fills what it is not given from that object, at
// call time, through withSamplingDefaults: changing a spec's default moves the CLI, the API and
// the library together. Below this point (the driver, the batched sampler) every option is
// required, so no second default can hide there.
import type { SJDProcess } from '../process/index.js';
import type { GridKind } from './grid.js';
import { defaultSampler } from './registry.js';
import type { SamplerName } from './sampler-names.js';

/** Where sampling starts unless told otherwise (`sjd solve`, `sjd sample`, the page, the library). */
export interface SamplingDefaults {
  sampler(proc: SJDProcess): SamplerName; // text, images: defaultSampler (MDLM's step, the exact step or Alg. 2)
  nfe(sampler?: SamplerName): number; // the NFE budget (per board for Sudoku), by sampler where it depends on one
  temperature: number; // divides the classifier's logits
  topP: number; // nucleus truncation of every categorical draw; 1 keeps it whole
  grid: GridKind; // the time grid of the grid samplers
  rules?: boolean; // a task with rules (Sudoku): whether a solve uses them; its searching samplers need them
}

/** The library's defaults: the process's own sampler (defaultSampler), 64 NFE, no tempering. */
export const SAMPLING_DEFAULTS: SamplingDefaults = {
  sampler: defaultSampler,
  nfe: () => 64,
  temperature: 1,
  topP: 1,
  grid: 'cosine',
};

/** Sequences sampled together by an unconditional run unless told otherwise (batched.ts). */
export const DEFAULT_BATCH = 64;

/** The settings every sampler run needs; a call gives any of them, the defaults the rest. */
export interface SamplingSettings {
  sampler: SamplerName;
  nfe: number;
  temperature: number;
  topP: number;
  grid: GridKind;
}

/** `given`'s settings, the rest from `d` (read now: a changed default is seen at once). */
export function withSamplingDefaults(
  d: SamplingDefaults,
  proc: SJDProcess,
  given: Partial<SamplingSettings>,
): SamplingSettings {
  const sampler = given.sampler ?? d.sampler(proc);
  return {
    sampler,
    nfe: given.nfe ?? d.nfe(sampler),
    temperature: given.temperature ?? d.temperature,
    topP: given.topP ?? d.topP,
    grid: given.grid ?? d.grid,
  };
}
