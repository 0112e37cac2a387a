// The image task's commands: `sjd train features` (the metrics' feature network), `sjd eval
// image`, `sjd sample image` and `sjd data images` (its training and comparison flags are its
// spec's, tasks/image/flags.ts).
export { registerData } from './data.js';
export { registerEval } from './eval.js';
export { registerFeatures } from './features.js';
export { registerSample } from './sample.js';
