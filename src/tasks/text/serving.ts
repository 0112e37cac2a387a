// Serving the text task (common/task-spec.ts TaskServing): its models' shape, the sampling
// defaults (app:text8: MDLM's ancestral step for the masked preset, else Alg. 2; NFE 64,
// temperature 0.7), a model from its files' bytes with its vocabulary (an alphabet, or a
// tokenizer whose JSON the config carries), and sampling as the API answers it, free or from a
// template (a prompt, a suffix, holes to infill). Reads no files: a browser bundle holds it.
import { networkLength } from '../../model/network.js';
import { type LoadedModel, modelFromFiles } from '../../train/model-io.js';
import type { TaskServing } from '../common/task-spec.js';
import { sampleTextSteps, TEXT_SAMPLING } from './sample.js';
import { textShape } from './task.js';
import type { TemplateSpec, TextTemplate } from './template.js';
import { modelTemplate, textDecoding, tokenPieces } from './vocabulary.js';

/** A text model with the text of each token (and, for a character model, its alphabet). */
export type TextModel = LoadedModel & { alphabet?: string; pieces: string[] };

/** A loaded text model with its vocabulary as the page shows it. */
export function withVocabulary(m: LoadedModel): TextModel {
  const pieces = tokenPieces(m.config);
  return m.config.tokenizer ? { ...m, pieces } : { ...m, alphabet: pieces.join(''), pieces };
}

export const textServing: TaskServing<TextModel> = {
  name: 'text',
  shape: textShape,
  sampling: TEXT_SAMPLING,
  fromFiles: (configText, weights, source) =>
    withVocabulary(modelFromFiles(configText, weights, textShape, source, 'text')),
  *sampleSteps(m, s, condition) {
    const template = (condition as TextTemplate | null | undefined) ?? null;
    const decoding = textDecoding(m.config);
    const r = yield* sampleTextSteps(m.model, m.process, { ...s, template, ...decoding });
    // the fields normalisation changed, as they were used (the page shows them)
    const normalised = template?.normalised;
    return { answer: normalised ? { texts: r.texts, normalised } : { texts: r.texts }, nfe: r.nfe };
  },
  conditioning: {
    fields: { prompt: 'string', suffix: 'string', infill: 'string', length: 'int' },
    parse: (m, q, name = (f) => f) =>
      modelTemplate(m.config, q as TemplateSpec, networkLength(m.model), name),
  },
};
