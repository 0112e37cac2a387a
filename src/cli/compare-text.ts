// `sjd compare text`: masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep, every model x
// seed trained (resumable), its frontiers traced under each sampler (tasks/text/compare.ts).
import type { Command } from 'commander';
import { text } from '../index.js';
import {
  type ComparisonFlags,
  checkOutputs,
  comparison,
  gaussianSampler,
  list,
  logHooks,
  markdownFile,
  reportDone,
} from './compare-options.js';
import { int } from './options.js';
import { reproduceLine } from './reproduce.js';

interface TextCompareFlags extends ComparisonFlags {
  samplers: string[];
  n: number;
  data?: string;
}

export function registerCompareText(cmd: Command): void {
  comparison(
    cmd.command('text'),
    'masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep: train every model x seed (resumable), trace frontiers, write docs',
    Object.keys(text.TEXT_SIZES),
    'sjd-SIGMA (the default W, row-normalised), sjd-row-SIGMA (the same), sjd-add-SIGMA (W_ii = 1)',
    ['masked', 'hybrid', ...text.SIGMA_SWEEP.map((s) => `sjd-${s}`)],
  )
    .option(
      '--samplers <list>',
      'samplers of the hybrid and sjd models, the first one in the verdicts (masked models: mdlm)',
      list(gaussianSampler, 'expected a comma-separated list of samplers'),
      ['ancestral', 'sjd'],
    )
    .option('-n, --n <n>', 'samples per frontier point', int(1, 100_000), 64)
    .option('--data <dir>', `corpus folder from \`sjd data text8\` (default: ${text.EMBEDDED})`)
    .option(
      '--doc <file>',
      'the Markdown report (plot and JSON beside it)',
      markdownFile,
      'docs/text-comparison.md',
    )
    .action(async (o: TextCompareFlags, c: Command) => {
      checkOutputs(o.out, o.doc);
      const corpus = text.loadCorpus(o.data);
      const size = text.TEXT_SIZES[o.size]!;
      const task = new text.TextTask(corpus, {
        length: size.length,
        evalWindows: 64,
        evalSamples: 16,
        evalNfe: 32,
        evalTemperature: 1,
      });
      const command = reproduceLine(c, { ...o });
      const runs = await text.runTextComparison(
        task,
        {
          out: o.out,
          size: o.size,
          steps: o.steps,
          seeds: o.seeds.map(Number),
          models: o.models,
          samplers: o.samplers,
          n: o.n,
          doc: o.doc,
          command,
        },
        logHooks,
      );
      reportDone(o.doc, runs !== null);
    });
}
