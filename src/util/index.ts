// File-system and network utilities: atomic writes, output-path guards, a free port.
export * from './atomic.js';
export * from './free-port.js';
export * from './out-path.js';
