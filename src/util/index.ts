// File-system and network utilities: atomic writes, cached results, output-path guards, a free port.
export * from './atomic.js';
export * from './cache.js';
export * from './free-port.js';
export * from './out-path.js';
