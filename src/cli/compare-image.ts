// `sjd compare image`'s own flags: masked (MDLM), hybrid (CADD) and sjd over sigma_B on one
// U-Net, every model x seed trained (resumable) and scored (FD/KID) at each NFE
// (tasks/image/compare/comparison.ts, run by the image spec's compare entry).
import type { Command } from 'commander';
import { image } from '../index.js';
import { gaussianSampler, nfesOption } from './compare-options.js';
import { int, levels, num } from './options.js';

export const imageCompareFlags = (c: Command): Command =>
  nfesOption(c, 'NFE of the scored samples', [32, 64, 128, 256])
    .option(
      '--sampler <name>',
      'sampler of the hybrid and sjd models (masked models: mdlm)',
      gaussianSampler,
      'ancestral',
    )
    .option(
      '--masked-top-p <p>',
      "top-p of the masked models' draws (the paper's MD4)",
      num(1e-6, 1),
      image.MD4_TOP_P,
    )
    .option(
      '--top-p <p>',
      "top-p of the hybrid and sjd models' commit draws (1: the whole distribution, as the paper's)",
      num(1e-6, 1),
      1,
    )
    .option('-n, --n <n>', 'images per scored set', int(20, 100_000), 1000)
    .option('--levels <n>', 'Fashion-MNIST grey levels', levels, 16)
    .option('--limit <n>', 'only the first N training images', int(1, 100_000_000))
    .option(
      '--features <dir>',
      'the feature network (default: the shipped one)',
      image.SHIPPED_FEATURES,
    );
