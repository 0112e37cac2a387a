// The text8-style text task (sec:exp-text8, app:text8): corpus, normalisation, the training task
// and its configs, sampling, word metrics, frontiers and the MDLM/CADD/SJD comparison; corpora
// in any alphabet; token corpora (raw text through GPT-2's BPE or a tokenizer.json).
export { type Alphabet, sameAlphabet, TEXT8 } from '../common/alphabet.js';
export * from './corpus.js';
export * from './corpus-write.js';
export type { SourceProgress } from './document-sink.js';
export * from './flags.js';
export * from './frontier.js';
export * from './infill.js';
export * from './load.js';
export * from './metrics.js';
export * from './normalise.js';
export * from './prepare.js';
export * from './presets.js';
export * from './sample.js';
export * from './spec.js';
export * from './task.js';
export * from './template.js';
export * from './text-alphabet.js';
export * from './tokens/token-corpus.js';
export * from './tokens/token-file.js';
export * from './tokens/token-task.js';
export * from './tokens/token-template.js';
export * from './tokens/tokenizer.js';
export * from './vocabulary.js';
export * from './windows.js';
