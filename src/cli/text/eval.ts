// `sjd eval text`: score a trained text model (the shipped one unless --model) by the words of a
// corpus's test split: the valid-word fractions (>= 5, >= 6 letters) and the unique-word fraction
// of its samples, and the held-out negative ELBO on its valid split (prop:elbo-eta1); --frontier sweeps 11 temperatures at NFE 32, 64, 128 and writes frontier.json
// and frontier.svg; --infill runs the infilling benchmark (holes of each shape in test windows,
// filled with the rest clamped; mean +- std over --seeds).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { precisionOf, sampling, text, type torch, train, util } from '../../index.js';
import { group, parsed } from '../options.js';
import { withProgress } from '../progress.js';
import { type SampleOpts, samplingOptions } from './sampling-flags.js';

type EvalOpts = SampleOpts & {
  data?: string;
  frontier?: boolean;
  out?: string;
  force?: boolean;
  json?: boolean;
  infill?: true | string[];
  seeds: number[];
};

type Loaded = ReturnType<typeof text.loadTextModel>;

/** The infilling benchmark: a line per hole shape (and --json's line). */
function evalInfill(o: EvalOpts, m: Loaded, test: string): void {
  const shapes = o.infill === true ? [...text.HOLE_SHAPES] : (o.infill as text.HoleShape[]);
  const opts = { ...o, shapes, windows: o.n };
  const alphabet = text.textAlphabet(m.config);
  const results = text.infillBenchmark(m.model, m.process, test, { ...opts, alphabet });
  const pm = (m: number, s: number) => `${(100 * m).toFixed(1)} +- ${(100 * s).toFixed(1)}%`;
  for (const r of results)
    console.log(
      `${r.shape}: hole characters right ${pm(r.mean.char_accuracy, r.std.char_accuracy)}, words touching a hole valid ${pm(r.mean.valid_words, r.std.valid_words)}, hole cross-entropy ${r.mean.hole_ce.toFixed(3)} nats (${o.n} windows, ${r.mean.holes} holes, seeds ${o.seeds.join(', ')})`,
    );
  if (o.json) {
    const sampler = o.sampler ?? sampling.defaultSampler(m.process);
    console.log(
      JSON.stringify({ nfe: o.nfe, sampler, precision: precisionOf(m.config.model), results }),
    );
  }
}

/**
 * The held-out negative ELBO on held-out windows x0 [n, L] (prop:elbo-eta1), where the process
 * has one, in bits a `unit`; a token model's line adds the perplexity bound 2^bits.
 */
function elboLine(m: Loaded, x0: torch.Tensor, unit: string): { elbo_bits?: number; line: string } {
  const why = train.elboUnavailable(m.process);
  if (why) return { line: `held-out ELBO: none (${why})` };
  const what = `held-out ELBO of ${x0.size(0)} windows`;
  const elbo_bits = withProgress(what, train.ELBO_DRAWS, 'draws', (onDraw) =>
    train.heldOutElboBits(m.model, m.process, x0, { onDraw }),
  );
  const bound = m.process.config.kernel === 'mask';
  const kind = bound ? 'a bound' : 'its jump part, no score term';
  const perplexity =
    unit === 'token' && bound ? `, perplexity at most ${(2 ** elbo_bits).toFixed(1)}` : '';
  return {
    elbo_bits,
    line: `held-out ELBO: ${elbo_bits.toFixed(3)} bits a ${unit}${perplexity} (${kind}; ${x0.size(0)} windows of ${x0.size(1)}, ${train.ELBO_DRAWS} draws)`,
  };
}

/** A token model: the held-out ELBO on its token corpus's valid split (or --data's). */
function evalTokens(o: EvalOpts, m: Loaded): void {
  if (o.frontier || o.infill)
    throw new Error('--frontier and --infill score words: they are for character models');
  const data = o.data ?? m.config.data;
  if (!data || !existsSync(data))
    throw new Error(`the model's token corpus (${data}) is not here; pass it with --data`);
  const corpus = text.loadTokenCorpus(data);
  const mine = text.textTokenizer(m.config)!;
  if (corpus.tokenizer.vocab !== mine.vocab || corpus.tokenizer.spec !== mine.spec)
    throw new Error(
      `${data}: its tokenizer (${corpus.tokenizer.name}) is not the model's (${mine.name})`,
    );
  const x0 = text.heldOutIds(corpus.valid, m.model.config.length, text.TOKEN_EVAL_WINDOWS, data);
  const elbo = elboLine(m, x0, 'token');
  console.log(elbo.line);
  if (o.json) console.log(JSON.stringify({ elbo_bits: elbo.elbo_bits ?? null, data }));
}

/** -n samples at the flags' settings, scored, and the held-out ELBO. */
function evalSamples(o: EvalOpts, m: Loaded, scorer: text.TextScorer, valid: string): void {
  const alphabet = text.textAlphabet(m.config);
  const t0 = performance.now();
  const { texts } = withProgress(`sampling ${o.n} texts`, o.n, 'texts', (progress) =>
    text.sampleText(m.model, m.process, { ...o, alphabet, progress }),
  );
  const chars_per_s = (texts.length * m.model.config.length) / ((performance.now() - t0) / 1000);
  const L = m.model.config.length;
  const x0 = text.heldOutTokens(valid, text.textAlphabet(m.config), L, text.EVAL_WINDOWS);
  const elbo = elboLine(m, x0, 'character');
  const r = {
    ...scorer.score(texts),
    nfe: o.nfe,
    temperature: o.temperature,
    precision: precisionOf(m.config.model),
    chars_per_s,
    ...(elbo.elbo_bits === undefined ? {} : { elbo_bits: elbo.elbo_bits }),
  };
  console.log(
    `valid words >= 5: ${(100 * r.valid_words5).toFixed(2)}%, >= 6: ${(100 * r.valid_words6).toFixed(2)}%, unique words ${(100 * r.unique_words).toFixed(2)}% (${r.samples} samples, ${o.nfe} NFE, temperature ${o.temperature}, ${chars_per_s.toFixed(0)} characters/s)`,
  );
  console.log(elbo.line);
  if (o.json) console.log(JSON.stringify(r));
}

/** The frontier: the sweep, its files (`files`: frontier.json and .svg), its maxima. */
async function evalFrontier(
  o: EvalOpts,
  m: Loaded,
  corpus: { valid: string; data: string; scorer: text.TextScorer },
  files: { json: string; svg: string },
): Promise<void> {
  const { scorer } = corpus;
  const count = text.FRONTIER_NFES.length * text.FRONTIER_TEMPERATURES.length;
  const sweep = `the frontier's ${count} points of ${o.n} texts`;
  const points = withProgress(sweep, count * o.n, 'texts', (progress) =>
    text.frontier(m.model, m.process, scorer, {
      alphabet: text.textAlphabet(m.config),
      n: o.n,
      seed: o.seed,
      sampler: o.sampler,
      progress,
      onPoint: (p) =>
        console.error(
          `NFE ${p.nfe} temperature ${p.temperature.toFixed(3)}: valid >= 5 ${(100 * p.valid_words5).toFixed(2)}%, >= 6 ${(100 * p.valid_words6).toFixed(2)}%, unique ${(100 * p.unique_words).toFixed(2)}%`,
        ),
    }),
  );
  const reference = text.heldOutReference(scorer, corpus.valid, m.model.config.length);
  const model = o.model ?? m.source;
  const about = {
    model,
    data: corpus.data,
    n: o.n,
    seed: o.seed,
    precision: precisionOf(m.config.model),
  };
  await text.writeFrontier(files.json, files.svg, [{ label: model, points }], about, reference);
  const max = text.frontierMaxima(points);
  for (const nfe of text.FRONTIER_NFES)
    console.log(
      `NFE ${nfe}: max valid words >= 5 ${(100 * max[nfe]!.valid_words5).toFixed(2)}%, >= 6 ${(100 * max[nfe]!.valid_words6).toFixed(2)}%`,
    );
  console.log(
    `held-out text: valid words >= 5 ${(100 * reference.valid_words5).toFixed(2)}%, >= 6 ${(100 * reference.valid_words6).toFixed(2)}%, unique ${(100 * reference.unique_words).toFixed(2)}%`,
  );
  console.log(`wrote ${files.json} and frontier.svg`);
  if (o.json)
    console.log(JSON.stringify({ maxima: max, precision: precisionOf(m.config.model), points }));
}

/** The corpus whose test split is the dictionary: --data, else the model's when it is here. */
function corpusOf(o: EvalOpts, m: Loaded) {
  const trained = m.config.data;
  const data = o.data ?? (trained && existsSync(trained) ? trained : text.EMBEDDED);
  if (o.data === undefined && data !== trained)
    console.error(
      `sjd eval text: ${trained} (the model's corpus) is not here; scoring against the words of ${data}`,
    );
  const corpus = text.loadCorpus(data);
  const want = text.textAlphabet(m.config);
  if (!text.sameAlphabet(corpus.alphabet ?? text.TEXT8, want))
    throw new Error(
      `${data}: its alphabet is not the model's (${want.symbols.length} symbols); pass the model's corpus with --data`,
    );
  return { data, corpus };
}

async function evalText(o: EvalOpts): Promise<void> {
  if (o.infill && o.frontier)
    throw new Error('--infill and --frontier are two benchmarks: one at a time');
  const dir = o.out ?? o.model;
  if (o.frontier && dir === undefined)
    throw new Error('--frontier with the shipped model needs --out (its folder is not written)');
  // before the sweep: a frontier sjd wrote there is replaced, a user's file is not
  const files = { json: join(dir ?? '.', 'frontier.json'), svg: join(dir ?? '.', 'frontier.svg') };
  if (o.frontier)
    util.claimOutFiles(files.json, [files.svg], o.force === true, {
      flag: '--out',
      kind: text.FRONTIER_FILE,
    });
  const m = text.loadTextModel(o.model, o);
  if (m.config.tokenizer) return evalTokens(o, m);
  const { data, corpus } = corpusOf(o, m);
  if (o.infill) return evalInfill(o, m, corpus.test);
  const scorer = new text.TextScorer(corpus.test);
  if (!o.frontier) return evalSamples(o, m, scorer, corpus.valid);
  await evalFrontier(o, m, { valid: corpus.valid, data, scorer }, files);
}

export function registerEval(program: Command): void {
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
      parsed(util.seedList),
      [0, 1, 2],
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
    .action(evalText);
}
