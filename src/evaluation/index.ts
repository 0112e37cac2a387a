// Evaluation utilities shared by the tasks: plots and summary statistics.
export * from './plot.js';
export * from './stats.js';
