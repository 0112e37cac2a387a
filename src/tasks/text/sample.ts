// Text sampling (app:text8): Alg. 2 on a cosine grid for the hybrid and blended processes,
// MDLM's ancestral sampler for the masked preset, in batches (sampling/batched.ts); tokens to
// strings; one batch can be taken step by step for streaming. Unconditional, or conditioned by
// a template (template.ts: a prompt, a suffix, an infill with holes) whose known characters are
// clamped, as Sudoku's clues: committed from the start in every sampler; texts cut to its length.
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
import type { Alphabet } from '../common/alphabet.js';
import { cutRows, templateSampling } from '../common/template.js';
import { decode } from './corpus.js';
import type { TextTemplate } from './template.js';
import type { TextTokenizer } from './tokens/tokenizer.js';

/**
 * Text's sampling defaults (the commands', the page's and sampleText's): the library's, at
 * temperature 0.7, where the shipped model's samples read best (docs/text.md).
 */
export const TEXT_SAMPLING: SamplingDefaults = { ...SAMPLING_DEFAULTS, temperature: 0.7 };

/**
 * A text run's options: those of every unconditional run, and a template (default: none), or one
 * per sample (the infilling benchmark's windows).
 */
export type TextSampleOptions = UnconditionalOptions & {
  template?: TextTemplate | TextTemplate[] | null;
  /** the model's alphabet (task.ts textAlphabet; default text8's) */
  alphabet?: Alphabet;
  /** a token model's tokenizer (task.ts textTokenizer): rows decode through it */
  tokenizer?: TextTokenizer;
};

/** Rows of tokens as texts, each cut to its template's length. */
const textsOf = (rows: number[][], o: TextSampleOptions) =>
  cutRows(rows, o.template).map((ids) =>
    o.tokenizer ? o.tokenizer.decode(ids) : decode(ids, o.alphabet),
  );

export function sampleText(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): { texts: string[]; trajectory?: TrajectoryStep[] } {
  const { rows, trajectory } = sampleInBatches(
    model,
    proc,
    templateSampling(proc, o, TEXT_SAMPLING),
  );
  return { texts: textsOf(rows, o), trajectory };
}

/**
 * At most one batch of samples step by step (the web page's stream): yields each
 * sampler step over the n * L characters and returns the texts sampleText gives for the same
 * options (so `sjd sample text` with the same seed prints them).
 */
export function* sampleTextSteps(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): Generator<TrajectoryStep, { texts: string[]; nfe: number }> {
  const { rows, nfe } = yield* sampleBatchSteps(
    model,
    proc,
    templateSampling(proc, o, TEXT_SAMPLING),
  );
  return { texts: textsOf(rows, o), nfe };
}
