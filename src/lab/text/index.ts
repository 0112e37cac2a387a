// The text lab: `sjd compare text`'s frontiers (fig:text8), hazard tables (app:e2e-hazard) and
// infilling benchmark, their cached traces and reports.
export * from './compare-entry.js';
export * from './comparison.js';
export * from './frontier-cache.js';
export { HAZARD_ARMS, parseArms } from './hazard-arms.js';
export { hazardVerdict, rankCorrelation } from './hazard-report.js';
export * from './hazards.js';
export * from './infill.js';
