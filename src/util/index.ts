// Utilities the library and the commands share: atomic writes, cached results, output-path guards
// and the comparison reports sjd recognises as its own, SVG plots, a free port, loopback
// addresses; where the package is; the integer check that flags and environment variables share,
// and the values of flags read from text; folds over arrays of any length (the largest, the
// smallest, appending) and summary statistics over seeds; a noun with its article; a report let
// through every few seconds.
export * from './article.js';
export * from './atomic.js';
export * from './cache.js';
export * from './flag-values.js';
export * from './fold.js';
export * from './free-port.js';
export * from './integer.js';
export * from './loopback.js';
export * from './out-path.js';
export * from './package-root.js';
export * from './plot.js';
export * from './stats.js';
export * from './throttle.js';
export * from './uniforms.js';
