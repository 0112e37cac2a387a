// File-system utilities: atomic writes and output-path guards.
export * from './atomic.js';
export * from './out-path.js';
