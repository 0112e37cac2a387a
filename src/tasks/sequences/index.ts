// The sequences task: sequences over any alphabet (DNA, proteins, SMILES, a user's own symbols),
// read from FASTA or one a line, at a fixed or padded length; training, sampling and the k-mer
// distance of samples to held-out data.
export * from '../common/alphabet.js';
export * from './evaluate.js';
export * from './flags.js';
export * from './kmer.js';
export * from './presets.js';
export * from './read.js';
export * from './sample.js';
export * from './sequence-set.js';
export * from './spec.js';
export * from './task.js';
