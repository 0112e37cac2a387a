// sjd's public entry point.
export { Backbone, type BackboneConfig } from './model/backbone.js';
export { TokenClassifier } from './model/token-classifier.js';
export * as process from './process/index.js';
export * as sampling from './sample/index.js';
export * as torch from './torch/index.js';
export { crossEntropyStep, type StepOptions } from './train/step.js';
