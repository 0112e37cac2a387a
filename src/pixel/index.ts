// The pixel-space Gaussian baselines of tab:cifar10_fid (DDPM, Bit Diffusion), outside the SJD
// engine: their schedules, encodings of levels, training loss and samplers.
export * from './diffusion.js';
export * from './encoding.js';
export * from './sample.js';
export * from './schedule.js';
