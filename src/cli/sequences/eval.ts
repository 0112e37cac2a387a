// `sjd eval sequences`: score a sequences model on the held-out tenth of its data (or of --data,
// read with the model's alphabet and length): the held-out negative ELBO in bits a symbol, the
// k-mer distance of -n samples to the held-out sequences beside the training set's own, and
// infilling of each held-out sequence's middle quarter beside the commonest-symbol guess.
import type { Command } from 'commander';
import { precisionOf, sampling, sequences } from '../../index.js';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import { group, int, nfeOption, samplerOption, seedOption, temperatureOption } from '../options.js';
import { withPrecisionFlag } from '../precision-flag.js';

interface EvalOpts {
  precision?: PrecisionSetting;
  model: string;
  data?: string;
  n: number;
  nfe: number;
  temperature: number;
  sampler?: SamplerName;
  seed: number;
  k: number;
  json?: boolean;
}

function evalSequences(o: EvalOpts): void {
  const m = sequences.loadSequenceModel(o.model, o.precision);
  const data = o.data ?? m.config.data;
  if (!data) throw new Error(`${o.model}: its config names no data; pass --data FILE`);
  const shown = o.data ?? m.config.dataAs ?? data; // the data as the user spelled them
  const set = sequences.sequenceSet(sequences.readSequences(data), {
    alphabet: m.vocabulary.symbols.join(''),
    length: m.config.length,
    pad: m.vocabulary.pad,
  });
  const sampler = o.sampler ?? sampling.defaultSampler(m.process);
  const r = sequences.evaluateSequences(m, set, { ...o, sampler });
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(
    r.elbo_bits === undefined
      ? `held-out ELBO: none (${r.elbo_note})`
      : `held-out ELBO: ${r.elbo_bits.toFixed(3)} bits a symbol (${r.elbo_note}; ${r.held_out} held-out sequences of ${shown})`,
  );
  console.log(
    `${o.k}-mer distance (total variation) of ${o.n} samples to the held-out sequences: ${r.kmer_tv.toFixed(3)} (the training set's: ${r.kmer_floor.toFixed(3)})`,
  );
  console.log(
    `infilling the middle quarter: ${pct(r.infill_accuracy)} of ${r.holes} hidden symbols recovered (the commonest symbol everywhere: ${pct(r.infill_baseline)})`,
  );
  console.error(`${sampler} sampler, ${o.nfe} NFE, temperature ${o.temperature}, seed ${o.seed}`);
  if (o.json) {
    const precision = precisionOf(m.config.model);
    console.log(JSON.stringify({ ...r, nfe: o.nfe, sampler, seed: o.seed, precision }));
  }
}

export function registerEval(program: Command): void {
  withPrecisionFlag(
    samplerOption(
      group(program, 'eval', 'evaluate a model')
        .command('sequences')
        .description(
          'held-out ELBO (bits a symbol), k-mer distance of samples, and infilling of held-out sequences',
        ),
      '--sampler',
      "sampler (default: the task's for the model's process)",
    ),
    'sequences',
  )
    .requiredOption('--model <dir>', 'a sequences run folder or exported model')
    .option(
      '--data <file>',
      "sequences to hold out a tenth of (default: the model's training data)",
    )
    .option('-n, --n <n>', 'samples, and held-out sequences to infill at most', int(1, 100_000), 64)
    .option(...nfeOption('sequences'))
    .option(...temperatureOption('sequences'))
    .option(...seedOption)
    .option('--k <k>', 'the k of the k-mer distance', int(1, 12), sequences.EVAL_K)
    .option('--json', 'also print the scores as one JSON line')
    .action(evalSequences);
}
