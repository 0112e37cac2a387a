// The image lab: `sjd compare image` (tab:cifar10_fid at this machine's budget), its cached scores
// and the report with its sample grids.
export * from './compare-entry.js';
export * from './comparison.js';
export { MD4_TOP_P } from './scores.js';
