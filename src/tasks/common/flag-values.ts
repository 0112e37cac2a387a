// Flag values that name what the library's registries hold, for the tasks' flags
// (task-spec.ts TaskFlag) and the command line alike: a sampler of the sampler registry, the
// grid samplers that run the hybrid and sjd models of a comparison, models by process name
// (process/choice.ts), a comparison's NFE budgets. Each parser throws an Error whose one-line
// message says what is wrong (util/flag-values.ts has the plain ones).
import { canonicalProcessName, parseProcessName } from '../../process/choice.js';
import { getSampler, samplerName, samplerNames } from '../../sampling/registry.js';
import type { SamplerName } from '../../sampling/sampler-names.js';
import { distinct, listOf, nfeList, oneOf } from '../../util/flag-values.js';
import type { TaskFlag } from './task-spec.js';

/**
 * A sampler flag (`--sampler`, `--eval-sampler`), its choices from the sampler registry as it is
 * now: those a task may use (the searching ones only for a task with rules, `withRules`).
 */
export function samplerFlag(
  flag: string,
  description: string,
  fallback?: SamplerName,
  withRules = false,
): TaskFlag {
  const names = samplerNames(withRules);
  return {
    flags: `${flag} <name>`,
    description: `${description} (${names.join(', ')})`,
    parse: oneOf(names),
    default: fallback,
  };
}

/** A grid sampler that runs the hybrid and sjd models (by name; one line naming the known ones). */
export function gaussianSampler(name: string): SamplerName {
  const s = getSampler(name);
  if (s.maskedOnly || s.kind === 'adaptive')
    throw new Error(
      `sampler '${name}' cannot run the hybrid and sjd models of a comparison (it is ${s.maskedOnly ? "the masked models'" : 'adaptive'}; a grid sampler is needed)`,
    );
  return samplerName(name);
}

const gaussianSamplerItems = listOf(gaussianSampler, 'expected a comma-separated list of samplers');

/** Grid samplers of the hybrid and sjd models, a comma-separated list. */
export const gaussianSamplers = (value: string): SamplerName[] =>
  gaussianSamplerItems(value).map(samplerName);

/** Models by process name, a comma-separated list, each once under its canonical name (mdlm: masked). */
export const modelList = (value: string): string[] =>
  distinct(
    listOf(
      parseProcessName,
      'expected a comma-separated list of models',
    )(value).map(canonicalProcessName),
    (m) => m,
    (m) => `model '${m}'`,
  );

/** `--nfes`: the NFE budgets a comparison samples at (a comma-separated list, kept as written). */
export const nfesFlag = (description: string, defaults: readonly number[]): TaskFlag => ({
  flags: '--nfes <list>',
  description,
  parse: nfeList,
  default: [...defaults],
});
