// The paper's image comparison at this machine's scale (app:cifar10-imagenet, tab:cifar10): MDLM
// (masked), CADD (W = I) and SJD with the value-space blur at several sigma_B, on the same U-Net,
// optimiser, budget and seeds. Each run is a resumable run folder; its scores at each NFE are
// cached beside it (scores.json, scores.ts), so the comparison continues across sessions. Writes
// a Markdown table of FD (mean +- std over seeds) per model and NFE with KID, label entropy and
// coverage, the floor and ceiling at the same N, a plot of FD against NFE, and a sample grid per
// model.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { precisionNote } from '../../model/precision.js';
import { describeProcess, isPixelProcess, parseProcessName } from '../../process/index.js';
import type { ImageScores } from '../../tasks/image/evaluate.js';
import { loadAnyImageModel } from '../../tasks/image/load.js';
import { gridPng } from '../../tasks/image/png.js';
import { imageConfig } from '../../tasks/image/presets.js';
import { sampleAnyImages } from '../../tasks/image/sample.js';
import type { ImageTask } from '../../tasks/image/task.js';
import { finishedStep, isRunFolder, type TrainHooks } from '../../train/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { maxOf, minOf } from '../../util/fold.js';
import { writeSvg } from '../../util/plot.js';
import { mean, std } from '../../util/stats.js';
import { reproduceFooter, seedVerdict } from '../comparison-report.js';
import { modelSeedRuns, workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';
import type { ImageCompareOptions } from './options.js';
import { cachedScores, runScores, samplingOf } from './scores.js';

export interface ImageRunSummary {
  model: string;
  seed: number;
  dir: string;
  scores: Record<number, ImageScores>; // by NFE
}

const modelConfig = (name: string, task: ImageTask, o: ImageCompareOptions, seed: number) =>
  imageConfig(task.geometry, {
    ...parseProcessName(name),
    size: o.size,
    seed,
    steps: o.steps,
    precision: o.precision,
  });

const label = (name: string, task: ImageTask, o: ImageCompareOptions) =>
  describeProcess(modelConfig(name, task, o, 0).process);

export async function runImageComparison(
  task: ImageTask,
  o: ImageCompareOptions,
  hooks: TrainHooks = {},
): Promise<ImageRunSummary[] | null> {
  const queue = modelSeedRuns(o, (name, seed, dir) => {
    const work = async (): Promise<ImageRunSummary | null> => {
      hooks.log?.(`${label(name, task, o)}, seed ${seed}`);
      const scored = cachedScores(dir, name, o).missing.length === 0; // at every NFE
      const config = modelConfig(name, task, o, seed);
      if (!(await trainUnlessScored(dir, config, task, scored, hooks))) return null;
      const scores = runScores(dir, name, o, hooks.log);
      hooks.log?.(
        `${dir}: FD at NFE ${o.nfes.join('/')}: ${o.nfes.map((k) => scores[k]!.samples.fd.toFixed(2)).join('/')}`,
      );
      return { model: name, seed, dir, scores };
    };
    return { dir, work };
  });
  const runs = await workThrough(queue, { log: hooks.log, wait: o.wait });
  if (runs) await writeImageReport(task, o, runs);
  return runs;
}

/** The report and what goes beside it: its plot (.svg) and a sample grid per model (-MODEL.png). */
export function imageReportFiles(doc: string, models: readonly string[]) {
  const stem = doc.replace(/\.md$/, '');
  return { report: doc, svg: `${stem}.svg`, grids: models.map((m) => `${stem}-${m}.png`) };
}

/** A cell: the mean over seeds, with the spread where there are several. */
const meanStd = (xs: number[], d = 2) =>
  xs.length > 1 ? `${mean(xs).toFixed(d)} +- ${std(xs).toFixed(d)}` : mean(xs).toFixed(d);

/** The table's rows, a model each: FD at each NFE, then KID, label entropy, score, smallest class. */
function scoreRows(task: ImageTask, o: ImageCompareOptions, runs: ImageRunSummary[]): string[] {
  const top = maxOf(o.nfes);
  return o.models.map((m) => {
    const rs = runs.filter((r) => r.model === m);
    const at = (k: number) => rs.map((r) => r.scores[k]!);
    const fds = o.nfes.map((k) => meanStd(at(k).map((s) => s.samples.fd)));
    const last = at(top);
    const cover = last.map((s) => minOf(s.coverage));
    return `| ${label(m, task, o)} | ${fds.join(' | ')} | ${meanStd(
      last.map((s) => s.samples.kid),
      4,
    )} | ${meanStd(last.map((s) => s.label_entropy))} | ${meanStd(last.map((s) => s.score))} | ${meanStd(
      cover.map((c) => 100 * c),
      1,
    )} |`;
  });
}

/**
 * The claims at the largest NFE (FD, lower is better): CADD against MDLM, each SJD against CADD,
 * and each SJD against each of tab:cifar10_fid's continuous baselines (DDPM the closest).
 */
function fdClaims(task: ImageTask, o: ImageCompareOptions, runs: ImageRunSummary[]): string[] {
  const top = maxOf(o.nfes);
  const fdAt = (m: string) =>
    runs.filter((r) => r.model === m).map((r) => r.scores[top]!.samples.fd);
  const verdict = (m: string, b: string, bLabel = label(b, task, o)) =>
    seedVerdict(label(m, task, o), fdAt(m), bLabel, fdAt(b), {
      digits: 2,
      side: (x) => (x === 'below' ? 'below (better than)' : 'above (worse than)'),
    });
  const sjd = o.models.filter((m) => m.startsWith('sjd-'));
  return [
    ...(o.models.includes('masked')
      ? o.models.filter((m) => m !== 'masked').map((m) => verdict(m, 'masked', 'MDLM'))
      : []),
    ...(o.models.includes('hybrid') ? sjd.map((m) => verdict(m, 'hybrid', 'CADD')) : []),
    ...sjd.flatMap((m) => o.models.filter(isPixelProcess).map((b) => verdict(m, b))),
  ];
}

/**
 * A sample grid per model: the first seed trained to --steps (not one another process is
 * training again), at the largest NFE; where no run of the model kept its weights, the grid
 * already drawn stays. A grid with the bytes of a PNG already beside the report (the same run
 * sampled the same way for another report) is linked there, not written twice. Returns the
 * report's links and the grids to write (after the report, so that grids on disk sit beside the
 * report that names them).
 */
function drawGrids(
  task: ImageTask,
  o: ImageCompareOptions,
  runs: ImageRunSummary[],
): { links: string[]; write: { file: string; png: Uint8Array }[] } {
  const files = imageReportFiles(o.doc, o.models);
  const links: string[] = [];
  const write: { file: string; png: Uint8Array }[] = [];
  o.models.forEach((m, k) => {
    let file = files.grids[k]!;
    const r = runs.find(
      (x) => x.model === m && isRunFolder(x.dir) && finishedStep(x.dir) >= o.steps,
    );
    if (r) {
      const s = sampleAnyImages(loadAnyImageModel(r.dir), {
        n: 36,
        nfe: maxOf(o.nfes),
        seed: 0,
        ...samplingOf(m, o),
      });
      const png = gridPng(s.images, 36, task.geometry, { cols: 12 });
      const twin = twinOf(png, file);
      if (twin) file = twin;
      else write.push({ file, png });
    } else if (!existsSync(file)) return;
    links.push(`**${label(m, task, o)}**\n\n![${m} samples](${basename(file)})`);
  });
  return { links, write };
}

/** The report's Markdown: the setting, the verdicts, the table with its floor and ceiling, the plot, the grids. */
function reportMarkdown(
  task: ImageTask,
  o: ImageCompareOptions,
  runs: ImageRunSummary[],
  grids: string[],
): string {
  const top = maxOf(o.nfes);
  // the floor and ceiling do not depend on the model: the first run's
  const first = runs[0]!.scores[top]!;
  const claims = fdClaims(task, o, runs);
  const g = task.geometry;
  const pixelNote = o.models.some(isPixelProcess)
    ? ' The pixel-space baselines (src/pixel/) use the same U-Net layers as a regressor and sample by their own step: DDPM ancestral on its 1000-step chain respaced to the NFE, Bit Diffusion DDIM on a uniform grid.'
    : '';
  const verdicts =
    claims.length > 0
      ? `## Verdicts (FD at NFE ${top}, lower is better)\n\n${claims.map((c) => `- ${c}`).join('\n')}\n\n`
      : '';
  return `# Images: ${o.models.map((m) => label(m, task, o)).join(', ')} at this machine's scale

Fashion-MNIST-style images of ${g.height} x ${g.width} x ${g.channels}, ${g.levels} levels; size \`${o.size}\` (the same U-Net and optimiser
for every model${precisionNote(o.precision)}), ${o.steps} steps, seeds ${o.seeds.join(', ')}. Scores on N = ${o.n} samples (seed 0) against N training
images in the feature space of \`${o.features.path}\` (test accuracy ${(100 * o.features.accuracy).toFixed(1)}%); the \`${o.sampler}\` sampler on a cosine grid (MDLM's
ancestral sampler with top-p ${o.maskedTopP} for the masked model${o.topP === 1 ? '' : `; top-p ${o.topP} for the hybrid and SJD models`}).${pixelNote} KID, label entropy (nats), score and the smallest class share are at NFE ${top}.

${verdicts}## Scores

| model | ${o.nfes.map((k) => `FD, NFE ${k}`).join(' | ')} | KID | label entropy | score | smallest class (%) |
|---|${o.nfes.map(() => '---').join('|')}|---|---|---|---|
${scoreRows(task, o, runs).join('\n')}
| floor: ${o.n} test images | ${o.nfes.map(() => first.floor.fd.toFixed(2)).join(' | ')} | ${first.floor.kid.toFixed(4)} | | | |
| ceiling: per-pixel marginals | ${o.nfes.map(() => first.ceiling.fd.toFixed(2)).join(' | ')} | ${first.ceiling.kid.toFixed(4)} | | | |

![FD against NFE](${basename(imageReportFiles(o.doc, o.models).svg)})

${grids.join('\n\n')}

${reproduceFooter(o.command)}`;
}

/** The plot beside the report: FD against NFE, a line per run. */
async function writeFdPlot(
  task: ImageTask,
  o: ImageCompareOptions,
  runs: ImageRunSummary[],
): Promise<void> {
  const values = runs.flatMap((r) =>
    o.nfes.map((k) => ({
      nfe: k,
      fd: r.scores[k]!.samples.fd,
      model: label(r.model, task, o),
      run: `${r.model} seed ${r.seed}`,
    })),
  );
  const spec: TopLevelSpec = {
    data: { values },
    width: 520,
    height: 260,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'nfe', type: 'quantitative', scale: { type: 'log', base: 2 }, title: 'NFE' },
      y: { field: 'fd', type: 'quantitative', title: 'Fréchet distance (features)' },
      color: { field: 'model', type: 'nominal' },
      detail: { field: 'run', type: 'nominal' },
    },
  };
  await writeSvg(imageReportFiles(o.doc, o.models).svg, spec);
}

/** The report, its sample grids (drawn before it, written after it) and its plot. */
async function writeImageReport(
  task: ImageTask,
  o: ImageCompareOptions,
  runs: ImageRunSummary[],
): Promise<void> {
  makeDir(dirname(o.doc));
  const grids = drawGrids(task, o, runs);
  writeFileAtomic(o.doc, reportMarkdown(task, o, runs, grids.links));
  for (const w of grids.write) writeFileAtomic(w.file, w.png);
  await writeFdPlot(task, o, runs);
}

/**
 * Another PNG in `target`'s folder with exactly the bytes `png`, if there is one and `target`
 * does not already hold them (a report written again keeps its own grid).
 */
function twinOf(png: Uint8Array, target: string): string | undefined {
  const same = (path: string) =>
    existsSync(path) &&
    statSync(path).size === png.byteLength &&
    Buffer.from(png).equals(readFileSync(path));
  if (same(target)) return undefined;
  const dir = dirname(target);
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .find((path) => path.endsWith('.png') && path !== target && same(path));
}
