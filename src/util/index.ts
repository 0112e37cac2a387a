// File-system and network utilities: atomic writes, cached results, output-path guards, a free
// port; where the package is; and the integer check that flags and environment variables share.
export * from './atomic.js';
export * from './cache.js';
export * from './free-port.js';
export * from './integer.js';
export * from './out-path.js';
export * from './package-root.js';
export * from './uniforms.js';
