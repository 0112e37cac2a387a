// The sampling flags of `sjd sample text` and `sjd eval text`: the model, the sampler, its NFE,
// temperature and top-p (the text spec's defaults), the number of samples, the seed, and the
// uniform-hazard sampler of a model trained with hazard weights (tab:e2e-text8), the precision.
import type { Command } from 'commander';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import {
  int,
  nfeOption,
  samplerOption,
  seedOption,
  temperatureOption,
  topPOption,
} from '../options.js';
import { withPrecisionFlag } from '../precision-flag.js';

export interface SampleOpts {
  model?: string;
  nfe: number;
  temperature: number;
  n: number;
  seed: number;
  topP: number;
  sampler?: SamplerName;
  uniformHazard?: boolean;
  precision?: PrecisionSetting;
}

export function samplingOptions(cmd: Command): Command {
  return withPrecisionFlag(
    samplerOption(cmd, '--sampler', 'sampler (default: mdlm for masked models, else sjd)').option(
      '--model <dir>',
      'a text run folder or exported text model (default: the shipped one)',
    ),
    'text',
  )
    .option(...nfeOption('text'))
    .option(...temperatureOption('text'))
    .option('-n, --n <n>', 'number of samples', int(1, 1_000_000), 16)
    .option(...seedOption)
    .option(...topPOption('text'))
    .option(
      '--uniform-hazard',
      'sample with hazard weights w = 1 (a model trained with learned or frozen ones: the "w = 1 sampler" of tab:e2e-text8)',
    );
}
