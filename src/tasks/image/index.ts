// The image task (the paper's image experiments, app:cifar10-imagenet): idx files, grey levels,
// image sets (Fashion-MNIST, CIFAR-10's batches, folders of pictures, synthetic colour patterns)
// and their files, images as tokens, loading, sampling, metrics in a feature space, and the
// MDLM/CADD/SJD comparison.
export * from './cifar.js';
export * from './dataset.js';
export * from './evaluate.js';
export * from './feature-net.js';
export * from './feature-train.js';
export * from './file.js';
export * from './flags.js';
export * from './folder.js';
export * from './frechet.js';
export * from './idx.js';
export * from './levels.js';
export * from './load.js';
export * from './png.js';
export * from './presets.js';
export * from './sample.js';
export * from './source.js';
export * from './spec.js';
export * from './speckle.js';
export * from './synthetic.js';
export * from './task.js';
export * from './tokens.js';
