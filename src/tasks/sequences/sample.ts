// Sampling a sequences model: the process's own sampler (MDLM's ancestral step for the masked
// preset, else Alg. 2) in batches, with the library's sampling defaults, free or from a template
// (common/template.ts: a prompt, a suffix, an infill with holes, a length; one for all rows or
// one a row) whose known symbols are clamped; tokens back to strings, each cut to its template's
// length and ending at its first PAD.
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
  type UnconditionalOptions,
} from '../../sampling/index.js';
import { type Alphabet, decodeTokens } from '../common/alphabet.js';
import { cutRows, type Template, templateSampling } from '../common/template.js';

/** The sequences task's sampling defaults: the library's. */
export const SEQUENCE_SAMPLING: SamplingDefaults = { ...SAMPLING_DEFAULTS };

/** A run's options: those of every unconditional run, and a template (or one a row). */
export type SequenceSampleOptions = UnconditionalOptions & {
  template?: Template | Template[] | null;
};

export function sampleSequences(
  model: Network,
  proc: SJDProcess,
  alphabet: Alphabet,
  o: SequenceSampleOptions,
): string[] {
  const { rows } = sampleInBatches(model, proc, templateSampling(proc, o, SEQUENCE_SAMPLING));
  return cutRows(rows, o.template).map((r) => decodeTokens(r, alphabet));
}

/** At most one batch step by step (the page's stream); returns what sampleSequences would. */
export function* sampleSequenceSteps(
  model: Network,
  proc: SJDProcess,
  alphabet: Alphabet,
  o: SequenceSampleOptions,
): Generator<TrajectoryStep, { sequences: string[]; nfe: number }> {
  const run = sampleBatchSteps(model, proc, templateSampling(proc, o, SEQUENCE_SAMPLING));
  const { rows, nfe } = yield* run;
  return { sequences: cutRows(rows, o.template).map((r) => decodeTokens(r, alphabet)), nfe };
}
