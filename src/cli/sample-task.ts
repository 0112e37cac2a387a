// `sjd sample TASK` for a registered task without a sampling command of its own (text and images
// have theirs): one batch of unconditional samples through the task's spec (its sampleSteps and
// sampling defaults, as `sjd serve` answers POST /api/TASK/sample), printed one sample a line
// where the answer is one list of strings (sequences) and as one JSON line of what the spec answers
// otherwise or with --json, with a summary line on stderr.
import type { Command } from 'commander';
import { sampling, type TaskSpec, taskSpecs, util } from '../index.js';
import type { PrecisionSetting } from '../model/auto-precision.js';
import type { SamplerName } from '../sampling/index.js';
import { group, int, nfeOption, samplerOption, seedOption, temperatureOption } from './options.js';
import { withPrecisionFlag } from './precision-flag.js';

interface Flags {
  model?: string;
  n: number;
  nfe: number;
  temperature: number;
  sampler?: SamplerName;
  seed: number;
  json?: boolean;
  precision?: PrecisionSetting;
}

/** An answer's lines: the strings of its one field where that is a list of strings, else its JSON. */
function answerLines(answer: unknown): string[] {
  const values = Object.values(answer as Record<string, unknown>);
  const only = values.length === 1 ? values[0] : undefined;
  if (Array.isArray(only) && only.every((x) => typeof x === 'string')) return only as string[];
  return [JSON.stringify(answer)];
}

function registerOne(cmd: Command, spec: TaskSpec): void {
  const sub = withPrecisionFlag(
    samplerOption(
      cmd
        .command(spec.name)
        .description(`sample the ${spec.name} task's model (one sample a line, or one JSON line)`),
      '--sampler',
      "sampler (default: the task's for the model's process)",
    ),
    spec.name,
  )
    .option('--model <dir>', `a ${spec.name} run folder or exported model`)
    .option('-n, --n <n>', 'number of samples', int(1, 4096), 16)
    .option(...nfeOption(spec.name))
    .option(...temperatureOption(spec.name))
    .option(...seedOption)
    .option('--json', 'print the answer as one JSON line, as POST /api/TASK/sample gives it');
  // the task's conditioning fields as flags (sequences: a template)
  const fields = Object.entries(spec.conditioning?.fields ?? {});
  for (const [field, kind] of fields) {
    const flag = `--${field} <${kind === 'int' ? 'n' : 'value'}>`;
    const about = `condition on ${field} (as POST /api/${spec.name}/sample takes it)`;
    if (kind === 'int') sub.option(flag, about, int(1, 1_000_000));
    else sub.option(flag, about);
  }
  sub.action((o: Flags & Record<string, unknown>) => {
    const m = spec.load(o.model, o.precision);
    const q = Object.fromEntries(fields.flatMap(([f]) => (o[f] === undefined ? [] : [[f, o[f]]])));
    const condition =
      Object.keys(q).length > 0 ? spec.conditioning!.parse(m, q, (f) => `--${f}`) : undefined;
    const given = { sampler: o.sampler, nfe: o.nfe, temperature: o.temperature };
    const settings = {
      ...sampling.withSamplingDefaults(spec.sampling, m.process, given),
      n: o.n,
      seed: o.seed,
    };
    const { sampler } = settings;
    const t0 = performance.now();
    const { answer, nfe } = sampling.drain(spec.sampleSteps!(m, settings, condition), false);
    const s = (performance.now() - t0) / 1000;
    for (const line of o.json ? [JSON.stringify(answer)] : answerLines(answer)) console.log(line);
    console.error(
      `${util.counted(o.n, `${spec.name} sample`)}, ${sampler} sampler, ${nfe} NFE, temperature ${o.temperature}, seed ${o.seed}: ${(o.n / s).toFixed(1)} samples/s`,
    );
  });
}

/** A `sample` subcommand for every registered task that samples and has none yet. */
export function registerSampleTasks(program: Command): void {
  const sample = group(program, 'sample', 'draw samples from a model');
  const taken = new Set(sample.commands.map((c) => c.name()));
  for (const spec of taskSpecs())
    if (spec.sampleSteps && !taken.has(spec.name)) registerOne(sample, spec);
}
