// Evaluation utilities shared by the tasks: plots, summary statistics and the comparisons'
// reports (their reproduce line, by which sjd knows its own).
export * from './plot.js';
export * from './report.js';
export * from './stats.js';
