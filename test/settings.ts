// The sampling settings a test runs at unless it says otherwise: the library's defaults
// (src/sampling/defaults.ts), with Alg. 2 as the sampler. The driver takes every setting
// explicitly, so a test spreads these first and overrides what it studies.
import { SAMPLING_DEFAULTS } from '../src/sampling/index.js';

export const SETTINGS = {
  sampler: 'sjd' as const,
  grid: SAMPLING_DEFAULTS.grid,
  temperature: SAMPLING_DEFAULTS.temperature,
  topP: SAMPLING_DEFAULTS.topP,
};
