// The sequences task as the commands and `sjd serve` see it (common/task-spec.ts): sequences over
// any alphabet (DNA, proteins, SMILES, a user's own symbols) from a FASTA file or one sequence a
// line; its models' shape from the length and alphabet their config carries, no shipped model, the
// library's sampling defaults, a training run from `sjd train sequences`'s flags, and unconditional
// sampling as the API answers it.

import { defaultPrecisionSetting, type PrecisionSetting } from '../../model/auto-precision.js';
import { networkLength } from '../../model/network.js';
import type { LoadedModel } from '../../train/model-io.js';
import { loadTransformer } from '../../train/model-io.js';
import type { Alphabet } from '../common/alphabet.js';
import { DEFAULT_HOLD_OUT } from '../common/hold-out.js';
import type { TaskSpec, TrainOptions } from '../common/task-spec.js';
import { makeTemplate, type Template, type TemplateSpec } from '../common/template.js';
import { SEQUENCE_TRAIN_DEFAULTS, SEQUENCE_TRAIN_FLAGS, type SequenceTrainFlags } from './flags.js';
import { SEQUENCE_PROCESS, SEQUENCE_SIZES, sequenceConfig } from './presets.js';
import { readSequences } from './read.js';
import { SEQUENCE_SAMPLING, sampleSequenceSteps } from './sample.js';
import { sequenceSet } from './sequence-set.js';
import { SequenceTask, sequenceShape } from './task.js';

/**
 * A loaded sequences model and its vocabulary (its symbols, and PAD when padded), with the text of
 * each token as the page shows it (PAD: nothing).
 */
export type SequenceModel = LoadedModel & { vocabulary: Alphabet; pieces: string[] };

/** A run folder or exported model of the sequences task, with its alphabet. */
export function loadSequenceModel(
  dir?: string,
  precision: PrecisionSetting = defaultPrecisionSetting(),
): SequenceModel {
  if (!dir)
    throw new Error(
      'the sequences task ships no model: give --model DIR (a run folder or an exported model)',
    );
  const r = loadTransformer(dir, sequenceShape, 'sequences', { precision });
  const vocabulary = r.config.alphabet!;
  return { ...r, vocabulary, pieces: [...vocabulary.symbols, ...(vocabulary.pad ? [''] : [])] };
}

export const sequenceSpec: TaskSpec<SequenceModel> = {
  name: 'sequences',
  shape: sequenceShape,
  load: loadSequenceModel,
  sampling: SEQUENCE_SAMPLING,
  train: {
    description:
      'train a denoiser of sequences over any alphabet (FASTA or one a line; default: sjd with the 1-D Gaussian W)',
    sizes: SEQUENCE_SIZES,
    defaults: SEQUENCE_PROCESS,
    flags: SEQUENCE_TRAIN_FLAGS,
    prepare: (o: TrainOptions & SequenceTrainFlags, saved) => {
      const data = o.data ?? saved?.data;
      if (!data)
        throw new Error('sjd train sequences needs --data FILE (FASTA, or one sequence a line)');
      const file = readSequences(data);
      const set = sequenceSet(file, {
        // a resumed run keeps its alphabet and length
        alphabet: saved?.alphabet ? saved.alphabet.symbols.join('') : o.alphabet,
        length: saved?.length ?? o.length,
        pad: saved?.alphabet ? saved.alphabet.pad : o.pad,
        holdOut: saved ? saved.holdOut : o.holdOut,
      });
      const config = saved ?? {
        ...sequenceConfig(set.length, o),
        data,
        alphabet: set.alphabet,
        holdOut: o.holdOut ?? DEFAULT_HOLD_OUT,
      };
      const task = new SequenceTask(set, {
        evalSamples: o.evalSamples ?? SEQUENCE_TRAIN_DEFAULTS.evalSamples,
        evalNfe: o.evalNfe ?? SEQUENCE_TRAIN_DEFAULTS.evalNfe,
      });
      const n = (rows: Int32Array) => rows.length / set.length;
      const about = `${n(set.train)} training and ${n(set.valid)} held-out sequences of ${set.length} symbols from ${data} (${file.format}; alphabet ${set.alphabet.symbols.join('')}${set.alphabet.pad ? ' + PAD' : ''}${file.softMasked > 0 ? `; ${file.softMasked} soft-masked lowercase symbols read as uppercase` : ''})`;
      return { config, task, about };
    },
  },
  *sampleSteps(m, s, condition) {
    const template = (condition as Template | null | undefined) ?? null;
    const r = yield* sampleSequenceSteps(m.model, m.process, m.vocabulary, { ...s, template });
    return { answer: { sequences: r.sequences }, nfe: r.nfe };
  },
  conditioning: {
    fields: { prompt: 'string', suffix: 'string', infill: 'string', length: 'int' },
    parse: (m, q, name = (f) => f) =>
      makeTemplate(q as TemplateSpec, networkLength(m.model), { alphabet: m.vocabulary, name }),
  },
};
