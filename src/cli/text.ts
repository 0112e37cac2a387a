// `sjd data text8`, `sjd sample text` and `sjd eval text`: make a text8-style corpus, sample a
// trained text model, and score it (valid- and unique-word fractions; --frontier sweeps 11
// temperatures at NFE 32, 64, 128 and writes JSON and a plot).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { sampling, text, util } from '../index.js';
import { seedList } from './compare-options.js';
import {
  group,
  int,
  nfeOption,
  parsed,
  samplerOption,
  seedOption,
  temperatureOption,
  topPOption,
} from './options.js';
import { type Progress, progress, REPORT_FROM, withProgress } from './progress.js';

interface SampleOpts {
  model?: string;
  nfe: number;
  temperature: number;
  n: number;
  seed: number;
  topP: number;
  sampler?: string;
  uniformHazard?: boolean;
}

interface TemplateOpts {
  prompt?: string;
  suffix?: string;
  infill?: string;
  length?: number;
}

function samplingOptions(cmd: Command): Command {
  return samplerOption(cmd, '--sampler', 'sampler (default: mdlm for masked models, else sjd)')
    .option('--model <dir>', 'a text run folder or exported text model (default: the shipped one)')
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

export function registerText(program: Command): void {
  group(program, 'data', 'prepare data')
    .command('text8')
    .description(
      'normalise text as text8 (wikifil) and split it 90/5/5 into train.txt, valid.txt, test.txt',
    )
    .requiredOption('--out <dir>', 'corpus folder to write')
    .option(
      '--from <path>',
      `WikiExtractor output or plain text (file or folder), a text8 file or text8.zip; '${text.EMBEDDED}' for the embedded corpus`,
      text.EMBEDDED,
    )
    .option('--force', 'replace --out even when it is not a corpus folder sjd wrote')
    .action((o: { out: string; from: string; force?: boolean }) => {
      let bar: Progress | null | undefined; // made at the first report, when the size is known
      const MiB = 2 ** 20;
      const reading = (read: number, total: number) => {
        bar ??=
          total / MiB >= REPORT_FROM
            ? progress(`reading ${o.from}`, Math.ceil(total / MiB), 'MiB')
            : null;
        bar?.update(Math.round(read / MiB));
      };
      const meta = text.writeCorpus(o.from, o.out, { force: o.force, progress: reading }) as Record<
        string,
        { chars: number }
      >;
      bar?.stop();
      console.log(
        `wrote ${o.out}: train ${meta.train!.chars}, valid ${meta.valid!.chars}, test ${meta.test!.chars} characters (from ${o.from})`,
      );
    });

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
    .action((o: SampleOpts & TemplateOpts) => {
      const { model, process: proc } = text.loadTextModel(o.model, o);
      const template = text.textTemplate(o, model.config.length);
      for (const [field, v] of Object.entries(template?.normalised ?? {}))
        console.error(`--${field} normalised as the corpus is: ${JSON.stringify(v)}`);
      const t0 = performance.now();
      const { texts } = withProgress(`sampling ${o.n} texts`, o.n, 'texts', (progress) =>
        text.sampleText(model, proc, { ...o, template, progress }),
      );
      const s = (performance.now() - t0) / 1000;
      for (const t of texts) console.log(t);
      const length = template?.length ?? model.config.length;
      const given = template ? `, ${template.known.filter(Boolean).length} given` : '';
      console.error(
        `${texts.length} samples of ${length} characters${given}, ${o.sampler ?? sampling.defaultSampler(proc)} sampler, ${o.nfe} NFE, temperature ${o.temperature}: ${((texts.length * model.config.length) / s).toFixed(0)} characters/s`,
      );
    });

  samplingOptions(
    group(program, 'eval', 'evaluate a model')
      .command('text')
      .description('valid-word fractions (>= 5, >= 6) and unique-word fraction of samples'),
  )
    .option(
      '--data <dir>',
      `corpus folder whose test split is the dictionary (default: ${text.EMBEDDED})`,
    )
    .option('--frontier', 'sweep 11 temperatures in [0.05, 1] at NFE 32, 64, 128')
    .option(
      '--infill [shapes]',
      `the infilling benchmark: -n test windows with holes of each shape (${text.HOLE_SHAPES.join(', ')}; default all), filled with the rest clamped`,
      parsed(text.parseHoleShapes),
    )
    .option(
      '--seeds <list>',
      'with --infill: the sampling seeds (mean +- std over them)',
      seedList,
      ['0', '1', '2'],
    )
    .option(
      '--out <dir>',
      'where --frontier writes frontier.json and frontier.svg (default: the model folder)',
    )
    .option(
      '--force',
      'with --frontier: replace a frontier.json or frontier.svg in --out that sjd did not write',
    )
    .option('--json', 'end with one JSON line of the results')
    .action(
      async (
        o: SampleOpts & {
          data?: string;
          frontier?: boolean;
          out?: string;
          force?: boolean;
          json?: boolean;
          infill?: true | string[];
          seeds: string[];
        },
      ) => {
        if (o.infill && o.frontier)
          throw new Error('--infill and --frontier are two benchmarks: one at a time');
        const dir = o.out ?? o.model;
        if (o.frontier && dir === undefined)
          throw new Error(
            '--frontier with the shipped model needs --out (its folder is not written)',
          );
        // before the sweep: a frontier sjd wrote there is replaced, a user's file is not
        const json = join(dir ?? '.', 'frontier.json');
        const svg = join(dir ?? '.', 'frontier.svg');
        if (o.frontier)
          util.claimOutFiles(json, [svg], o.force === true, {
            flag: '--out',
            kind: text.FRONTIER_FILE,
          });
        const { model, process: proc, config, source } = text.loadTextModel(o.model, o);
        // the corpus the model was trained on when it is here (a shipped model's may not be)
        const data =
          o.data ?? (config.data && existsSync(config.data) ? config.data : text.EMBEDDED);
        if (o.data === undefined && data !== config.data)
          console.error(
            `sjd eval text: ${config.data} (the model's corpus) is not here; scoring against the words of ${data}`,
          );
        const corpus = text.loadCorpus(data);
        if (o.infill) {
          const shapes = o.infill === true ? [...text.HOLE_SHAPES] : (o.infill as text.HoleShape[]);
          const seeds = o.seeds.map(Number);
          const results = text.infillBenchmark(model, proc, corpus.test, {
            ...o,
            shapes,
            windows: o.n,
            seeds,
          });
          const pm = (m: number, s: number) =>
            `${(100 * m).toFixed(1)} +- ${(100 * s).toFixed(1)}%`;
          for (const r of results)
            console.log(
              `${r.shape}: hole characters right ${pm(r.mean.char_accuracy, r.std.char_accuracy)}, words touching a hole valid ${pm(r.mean.valid_words, r.std.valid_words)}, hole cross-entropy ${r.mean.hole_ce.toFixed(3)} nats (${o.n} windows, ${r.mean.holes} holes, seeds ${seeds.join(', ')})`,
            );
          if (o.json)
            console.log(
              JSON.stringify({
                nfe: o.nfe,
                sampler: o.sampler ?? sampling.defaultSampler(proc),
                results,
              }),
            );
          return;
        }
        const scorer = new text.TextScorer(corpus.test);
        if (!o.frontier) {
          const t0 = performance.now();
          const { texts } = withProgress(`sampling ${o.n} texts`, o.n, 'texts', (progress) =>
            text.sampleText(model, proc, { ...o, progress }),
          );
          const chars_per_s =
            (texts.length * model.config.length) / ((performance.now() - t0) / 1000);
          const r = { ...scorer.score(texts), nfe: o.nfe, temperature: o.temperature, chars_per_s };
          console.log(
            `valid words >= 5: ${(100 * r.valid_words5).toFixed(2)}%, >= 6: ${(100 * r.valid_words6).toFixed(2)}%, unique words ${(100 * r.unique_words).toFixed(2)}% (${r.samples} samples, ${o.nfe} NFE, temperature ${o.temperature}, ${chars_per_s.toFixed(0)} characters/s)`,
          );
          if (o.json) console.log(JSON.stringify(r));
          return;
        }
        const points = text.frontier(model, proc, scorer, {
          n: o.n,
          seed: o.seed,
          sampler: o.sampler,
          onPoint: (p) =>
            console.error(
              `NFE ${p.nfe} temperature ${p.temperature.toFixed(3)}: valid >= 5 ${(100 * p.valid_words5).toFixed(2)}%, >= 6 ${(100 * p.valid_words6).toFixed(2)}%, unique ${(100 * p.unique_words).toFixed(2)}%`,
            ),
        });
        const reference = text.heldOutReference(scorer, corpus.valid, model.config.length);
        await text.writeFrontier(
          json,
          svg,
          [{ label: o.model ?? source, points }],
          { model: o.model ?? source, data, n: o.n, seed: o.seed },
          reference,
        );
        const max = text.frontierMaxima(points);
        for (const nfe of text.FRONTIER_NFES)
          console.log(
            `NFE ${nfe}: max valid words >= 5 ${(100 * max[nfe]!.valid_words5).toFixed(2)}%, >= 6 ${(100 * max[nfe]!.valid_words6).toFixed(2)}%`,
          );
        console.log(
          `held-out text: valid words >= 5 ${(100 * reference.valid_words5).toFixed(2)}%, >= 6 ${(100 * reference.valid_words6).toFixed(2)}%, unique ${(100 * reference.unique_words).toFixed(2)}%`,
        );
        console.log(`wrote ${json} and frontier.svg`);
        if (o.json) console.log(JSON.stringify({ maxima: max, points }));
      },
    );
}
