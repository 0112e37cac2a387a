// The text task's commands: `sjd data text8`, `sjd sample text` and `sjd eval text` (its training
// and comparison flags are its spec's, tasks/text/flags.ts).
export { registerData } from './data.js';
export { registerEval } from './eval.js';
export { registerSample } from './sample.js';
