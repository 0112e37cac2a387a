// `sjd compare text`'s own flags: masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep,
// every model x seed trained (resumable), its frontiers traced under each sampler
// (tasks/text/compare/comparison.ts, run by the text spec's compare entry); or, with --hazards, the hazard
// tables of app:e2e-hazard (tasks/text/compare/hazards.ts); with --infill, the models on the infilling
// benchmark (tasks/text/compare/infill.ts).
import type { Command } from 'commander';
import { text } from '../index.js';
import { gaussianSampler, list, nfesOption, seedList } from './compare-options.js';
import { int, parsed } from './options.js';

export const textCompareFlags = (c: Command): Command =>
  nfesOption(
    c
      .option(
        '--samplers <list>',
        'samplers of the hybrid and sjd models, the first one in the verdicts (masked models: mdlm)',
        list(gaussianSampler, 'expected a comma-separated list of samplers'),
        ['ancestral', 'sjd'],
      )
      .option('-n, --n <n>', 'samples per frontier point', int(1, 100_000), 64),
    "the frontiers' NFE budgets (the verdicts at the largest; a frontier cached at more serves fewer)",
    text.FRONTIER_NFES,
  )
    .option('--data <dir>', `corpus folder from \`sjd data text8\` (default: ${text.EMBEDDED})`)
    .option(
      '--hazards <arms>',
      `instead of --models: the hazard tables of app:e2e-hazard, arms ${Object.keys(text.HAZARD_ARMS).join(', ')} or all (under the first of --samplers; report default docs/reports/text/hazards.md)`,
      parsed(text.parseArms),
    )
    .option(
      '--infill [shapes]',
      `instead of the frontiers: the models on the infilling benchmark, -n windows a shape (${text.HOLE_SHAPES.join(', ')}; default all; report default docs/reports/text/infilling.md)`,
      parsed(text.parseHoleShapes),
    )
    .option(
      '--infill-nfe <n>',
      `with --infill: the NFE of the fills (default ${text.TEXT_SAMPLING.nfe()})`,
      int(1, 100_000),
    )
    .option(
      '--learned-seeds <list>',
      'with --hazards: seeds of the learned-hazard and ELBO arms (default 0: the paper reports one)',
      seedList,
    );
