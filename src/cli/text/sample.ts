// `sjd sample text`: sample a trained text model (the shipped one unless --model), free or from
// a template (--prompt, --suffix, --infill; kept exactly, the rest generated), printing one text
// a line and, on stderr, the sampler, NFE, temperature and characters/s.
import type { Command } from 'commander';
import { sampling, text, util } from '../../index.js';
import { group, int } from '../options.js';
import { withProgress } from '../progress.js';
import { type SampleOpts, samplingOptions } from './sampling-flags.js';

interface TemplateOpts {
  prompt?: string;
  suffix?: string;
  infill?: string;
  length?: number;
}

function sampleText(o: SampleOpts & TemplateOpts): void {
  const { model, process: proc, config } = text.loadTextModel(o.model, o);
  const template = text.modelTemplate(config, o, model.config.length);
  for (const [field, v] of Object.entries(template?.normalised ?? {}))
    console.error(`--${field} normalised as the corpus is: ${JSON.stringify(v)}`);
  const t0 = performance.now();
  const { texts } = withProgress(`sampling ${o.n} texts`, o.n, 'texts', (progress) =>
    text.sampleText(model, proc, { ...o, template, ...text.textDecoding(config), progress }),
  );
  const s = (performance.now() - t0) / 1000;
  for (const t of texts) console.log(t);
  const length = template?.length ?? model.config.length;
  const given = template ? `, ${template.known.filter(Boolean).length} given` : '';
  const unit = text.textUnit(config);
  console.error(
    `${util.counted(texts.length, 'sample')} of ${length} ${unit}${given}, ${o.sampler ?? sampling.defaultSampler(proc)} sampler, ${o.nfe} NFE, temperature ${o.temperature}: ${((texts.length * model.config.length) / s).toFixed(0)} ${unit}/s`,
  );
}

export function registerSample(program: Command): void {
  samplingOptions(
    group(program, 'sample', 'draw samples from a model')
      .command('text')
      .description(
        'sample text (Alg. 2 on a cosine grid; MDLM ancestral for masked models), free or from a template',
      ),
  )
    .option('--prompt <text>', 'a prefix to continue (kept exactly; the rest generated)')
    .option('--suffix <text>', 'an ending (kept exactly, at the end of the text)')
    .option(
      '--infill <template>',
      `a whole template, ${text.HOLE} for each character to generate (e.g. "the quick ${text.HOLE.repeat(5)} fox")`,
    )
    .option(
      '--length <n>',
      "the text's length (default: the infill's, else the model's)",
      int(1, 1_000_000),
    )
    .action(sampleText);
}
