// A `sjd train text` run from its flags, or resumed from its saved config (app:text8): the corpus
// (a character corpus from `sjd data text`, the embedded one by default, or a token corpus from
// `sjd data tokens`) in windows of the size's length or --length; the model's vocabulary kept in
// its config (an alphabet other than text8's, or the tokenizer); hazard weights from the training
// split's token counts (app:e2e-hazard) and the loss.
import { describeProcess, withHazardWeights, withObjective } from '../../process/index.js';
import type { TrainConfig } from '../../train/index.js';
import { sameAlphabet, TEXT8 } from '../common/alphabet.js';
import type { PreparedRun, TrainOptions } from '../common/task-spec.js';
import { EMBEDDED, loadCorpus } from './corpus.js';
import { TEXT_TRAIN_DEFAULTS, type TextTrainFlags } from './flags.js';
import { textConfig } from './presets.js';
import { TextTask } from './task.js';
import { isTokenCorpus, loadTokenCorpus } from './tokens/token-corpus.js';
import { TokenTextTask } from './tokens/token-task.js';
import { textAlphabet } from './vocabulary.js';

/** Held-out windows of an evaluation: of characters, and of BPE tokens (whose logits over a
 * vocabulary of tens of thousands make each window a thousand times dearer). */
export const EVAL_WINDOWS = 64;
export const TOKEN_EVAL_WINDOWS = 16;

/** A character corpus's task, in windows of `length` (the comparisons': word metrics). */
export function characterTask(
  data: string | undefined,
  length: number,
  d = TEXT_TRAIN_DEFAULTS,
): TextTask {
  if (data !== undefined && isTokenCorpus(data))
    throw new Error(
      `${data}: a token corpus; the text comparisons score words of a character corpus`,
    );
  return new TextTask(loadCorpus(data), {
    length,
    evalWindows: EVAL_WINDOWS,
    evalSamples: d.evalSamples,
    evalNfe: d.evalNfe,
    evalTemperature: 1,
  });
}

/** The task a run trains on: a corpus (characters or tokens) in windows of `length`. */
export function textTask(
  data: string | undefined,
  length: number,
  d = TEXT_TRAIN_DEFAULTS,
): TextTask | TokenTextTask {
  if (data !== undefined && isTokenCorpus(data))
    return new TokenTextTask(loadTokenCorpus(data), { length, evalWindows: TOKEN_EVAL_WINDOWS });
  return characterTask(data, length, d);
}

/** The config's vocabulary: the task's tokenizer or alphabet; a resumed run's must be the same. */
function withVocabulary(
  config: TrainConfig,
  task: TextTask | TokenTextTask,
  saved: TrainConfig | undefined,
): TrainConfig {
  const where = config.data ?? EMBEDDED;
  if (task instanceof TokenTextTask) {
    const t = task.tokenizer;
    const tokenizer = {
      spec: t.spec,
      name: t.name,
      vocab: t.vocab,
      ...(t.json ? { json: t.json } : {}),
    };
    if (!saved) return { ...config, tokenizer };
    if (
      saved.tokenizer?.spec !== t.spec ||
      saved.tokenizer.vocab !== t.vocab ||
      saved.tokenizer.json !== t.json
    )
      throw new Error(`${where}: its tokenizer (${t.name}) is not the run's`);
    return config;
  }
  if (saved?.tokenizer) throw new Error(`${where}: a character corpus; the run trains on tokens`);
  if (!saved)
    return sameAlphabet(task.alphabet, TEXT8) ? config : { ...config, alphabet: task.alphabet };
  if (!sameAlphabet(task.alphabet, textAlphabet(saved)))
    throw new Error(
      `${where}: its alphabet (${task.alphabet.symbols.length} symbols) is not the run's (${textAlphabet(saved).symbols.length})`,
    );
  return config;
}

export function prepareTextRun(
  o: TrainOptions & TextTrainFlags,
  saved: TrainConfig | undefined,
): PreparedRun {
  let config = saved ?? { ...textConfig(o), data: o.data ?? EMBEDDED };
  if (!saved && o.length !== undefined) config = { ...config, length: o.length };
  const task = textTask(o.data ?? config.data, config.length ?? 0, {
    evalSamples: o.evalSamples ?? TEXT_TRAIN_DEFAULTS.evalSamples,
    evalNfe: o.evalNfe ?? TEXT_TRAIN_DEFAULTS.evalNfe,
  });
  config = withVocabulary(config, task, saved);
  if (!saved && o.hazardWeights !== undefined) {
    const counts = task.tokenCounts();
    config = { ...config, process: withHazardWeights(config.process, o.hazardWeights, counts) };
  }
  if (!saved && o.objective !== undefined)
    config = { ...config, process: withObjective(config.process, o.objective) };
  const what =
    task instanceof TokenTextTask
      ? `${task.corpus.train.length} training tokens (${task.tokenizer.name}, vocabulary ${task.classes})`
      : `${task.corpus.train.length} training characters${sameAlphabet(task.alphabet, TEXT8) ? '' : ` (${task.classes} symbols)`}`;
  const about = `${what} from ${o.data ?? config.data}, windows of ${config.length}; ${describeProcess(config.process)}`;
  return { config, task, about };
}
