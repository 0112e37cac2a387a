// The infilling comparison: masked (MDLM), hybrid (CADD) and SJD models of the text comparison (the
// same run folders, trained when missing: resumable) on the infilling benchmark (tasks/text/infill.ts), each
// under its method's sampler (MDLM's for masked models, the first of --samplers for the rest), one
// sampling seed per training seed, so the spread over seeds covers both. Does W help when the
// neighbours are known? With a blending W, an active site's corruption is centred on a blend of its
// neighbours' clean embeddings, so clamped neighbours inform every step of the move, not only the
// classifier's input. Results are cached beside each run (infill-<sampler>.json); the report states
// a verdict per shape: each SJD model against CADD and against MDLM on the hole characters, with
// both spreads and whether the seeds separate.
import { dirname, join } from 'node:path';
import { describeProcess, parseProcessName } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import type { ComparisonRuns } from '../../tasks/common/task-spec.js';
import { type HoleShape, type InfillResult, infillBenchmark } from '../../tasks/text/infill.js';
import { textConfig } from '../../tasks/text/presets.js';
import { type TextTask, textShape } from '../../tasks/text/task.js';
import { loadTransformer, type TrainHooks } from '../../train/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { cached, readCache } from '../../util/cache.js';
import { mean, separation, std } from '../../util/stats.js';
import { reproduceFooter } from '../comparison-report.js';
import { modelSeedRuns, workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';

export interface InfillCompareOptions extends ComparisonRuns {
  models: string[];
  sampler: SamplerName; // of the Gaussian models; masked ones: mdlm
  shapes: HoleShape[];
  windows: number;
  nfe: number;
}

interface InfillRun {
  model: string;
  seed: number;
  sampler: SamplerName;
  results: InfillResult[];
}

const samplerOf = (model: string, o: InfillCompareOptions) =>
  model === 'masked' ? 'mdlm' : o.sampler;

const label = (model: string) => describeProcess(textConfig(parseProcessName(model)).process);

/** Where a run's benchmark is cached, under which key. */
const infillCache = (dir: string, o: InfillCompareOptions, sampler: SamplerName, seed: number) => ({
  path: join(dir, `infill-${sampler}.json`),
  key: { windows: o.windows, nfe: o.nfe, shapes: o.shapes, step: o.steps, seed },
});

/** The benchmark of one run, from its cache when it has it for these settings. */
function cachedInfill(
  dir: string,
  task: TextTask,
  o: InfillCompareOptions,
  sampler: SamplerName,
  seed: number,
) {
  const { path, key } = infillCache(dir, o, sampler, seed);
  return cached<InfillResult[]>(path, key, () => {
    const { model, process: proc } = loadTransformer(dir, textShape, 'text');
    return infillBenchmark(model, proc, task.corpus.test, {
      shapes: o.shapes,
      windows: o.windows,
      seeds: [seed],
      nfe: o.nfe,
      sampler,
    });
  });
}

export async function runInfillComparison(
  task: TextTask,
  o: InfillCompareOptions,
  hooks: TrainHooks = {},
): Promise<InfillRun[] | null> {
  const queue = modelSeedRuns(o, (model, seed, dir) => {
    const sampler = samplerOf(model, o);
    // no training, no weights needed
    const scored = () => {
      const { path, key } = infillCache(dir, o, sampler, seed);
      return readCache(path, key) !== undefined;
    };
    const work = async (): Promise<InfillRun | null> => {
      const config = {
        ...textConfig({
          ...parseProcessName(model),
          size: o.size,
          seed,
          steps: o.steps,
          precision: o.precision,
        }),
        data: task.corpus.source,
      };
      hooks.log?.(`${label(model)}, seed ${seed}`);
      if (!(await trainUnlessScored(dir, config, task, scored(), hooks))) return null;
      const results = cachedInfill(dir, task, o, sampler, seed);
      hooks.log?.(
        `${dir}, ${sampler}: hole characters right ${results.map((r) => `${r.shape} ${(100 * r.mean.char_accuracy).toFixed(1)}%`).join(', ')}`,
      );
      return { model, seed, sampler, results };
    };
    return { dir, work, scored };
  });
  return workThrough(queue, {
    log: hooks.log,
    wait: o.wait,
    onResult: (runs) => writeInfillReport(o, runs),
  });
}

function writeInfillReport(o: InfillCompareOptions, runs: InfillRun[]): void {
  const pct = (xs: number[]) =>
    xs.length === 0 ? '-' : `${(100 * mean(xs)).toFixed(1)} +- ${(100 * std(xs)).toFixed(1)}`;
  const val = (m: string, shape: HoleShape, k: 'char_accuracy' | 'valid_words' | 'hole_ce') =>
    runs.filter((r) => r.model === m).map((r) => r.results.find((x) => x.shape === shape)!.mean[k]);
  const verdict = (a: string, b: string, shape: HoleShape) => {
    const xa = val(a, shape, 'char_accuracy');
    const xb = val(b, shape, 'char_accuracy');
    if (xa.length === 0 || xb.length === 0)
      return `${label(a)} against ${label(b)}: not measured yet`;
    const d = 100 * (mean(xa) - mean(xb));
    const side = separation(xa, xb);
    const sep =
      xa.length < 2 || xb.length < 2
        ? 'one seed on a side, so no separation is claimed'
        : side === 'overlap'
          ? 'the seeds overlap'
          : `every seed ${side}`;
    return `${label(a)} ${pct(xa)}% against ${label(b)} ${pct(xb)}% (${xa.length} and ${xb.length} seeds): ${d >= 0 ? '+' : ''}${d.toFixed(1)} points, ${sep}`;
  };
  const sjd = o.models.filter((m) => m.startsWith('sjd'));
  const sections = o.shapes.map((shape) => {
    const rows = o.models.map((m) => {
      const ce = val(m, shape, 'hole_ce');
      return `| ${label(m)} | ${samplerOf(m, o)} | ${val(m, shape, 'char_accuracy').length} | ${pct(val(m, shape, 'char_accuracy'))} | ${pct(val(m, shape, 'valid_words'))} | ${ce.length ? `${mean(ce).toFixed(3)} +- ${std(ce).toFixed(3)}` : '-'} |`;
    });
    const claims = sjd.flatMap((m) => [
      ...(o.models.includes('hybrid') ? [verdict(m, 'hybrid', shape)] : []),
      ...(o.models.includes('masked') ? [verdict(m, 'masked', shape)] : []),
    ]);
    return `## ${shape}

| model | sampler | seeds | hole characters right (%) | words touching a hole valid (%) | hole cross-entropy (nats) |
|---|---|---|---|---|---|
${rows.join('\n')}

${claims.map((c) => `- ${c}`).join('\n')}`;
  });
  const md = `# Text infilling: MDLM, CADD and SJD with the neighbours known

The text comparison's models (size \`${o.size}\`, ${o.steps} steps; the same run folders) on the infilling benchmark
(the \`--infill\` benchmark of \`sjd eval text\`, src/tasks/text/infill.ts): ${o.windows} evenly spaced windows of the test split per shape, the
holes of each window the same for every model and seed, everything else clamped; NFE ${o.nfe}; MDLM's sampler for the
masked model, \`${o.sampler}\` for the others; one sampling seed per training seed (mean +- std over seeds). Verdicts
on the hole characters: does W help when the neighbours are known?

${sections.join('\n\n')}

${reproduceFooter(o.command)}`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
}
