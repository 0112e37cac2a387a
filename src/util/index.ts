// File-system and network utilities: atomic writes, cached results, output-path guards, a free
// port, loopback addresses; where the package is; the integer check that flags and environment
// variables share; folds over arrays of any length (the largest, the smallest, appending); a noun
// with its article; a report let through every few seconds.
export * from './article.js';
export * from './atomic.js';
export * from './cache.js';
export * from './fold.js';
export * from './free-port.js';
export * from './integer.js';
export * from './loopback.js';
export * from './out-path.js';
export * from './package-root.js';
export * from './throttle.js';
export * from './uniforms.js';
