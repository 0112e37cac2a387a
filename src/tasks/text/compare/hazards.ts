// The hazard tables of app:e2e-hazard at this machine's scale (issue #29 item 4), on the text
// comparison's network, budget and samplers, at W = I, eta = 1 (the hybrid process):
//   tab:frozen-hazard  frozen w(a) proportional to freq(a)^gamma at spreads 2x and 4x in each
//                      direction against uniform, plain cross-entropy (arms uniform, freq-2,
//                      freq-4, anti-2, anti-4);
//   tab:e2e-text8      the classifier trained by the ELBO with w = 1 fixed (elbo) and with w
//                      learned (learned-bounded, learned-uniform-ce), each read out with its own w
//                      ("deployed") and with w = 1 ("w = 1 sampler"), against plain CE (uniform).
// Each arm x seed is a resumable run folder (the uniform arm's is the text comparison's hybrid
// run, shared when --out is the same); frontiers (and a learned run's weights) are cached beside
// them, and a run with all of them cached is not trained again (its checkpoint may be gone). The paper's metric: the
// valid-word fraction (>= 5) maximised over the whole temperature x NFE sweep. The report sets
// the paper's numbers beside ours, states a verdict per row against uniform (mean +- std, whether
// every seed is above or below), and for learned weights their spread (max w / min w) and the
// rank correlation of log w with character frequency, as the paper reports them.
import { dirname, join } from 'node:path';
import { type Precision, precisionNote } from '../../../model/precision.js';
import { withHazardWeights, withObjective } from '../../../process/index.js';
import {
  loadTransformer,
  type TrainHooks,
  trainUnlessScored,
  workThrough,
} from '../../../train/index.js';
import { makeDir, writeFileAtomic } from '../../../util/atomic.js';
import { cached, readCache } from '../../../util/cache.js';
import { reproduceFooter } from '../../../util/comparison-report.js';
import { maxOf, minOf } from '../../../util/fold.js';
import { mean, separation, std } from '../../../util/stats.js';
import { tokenCounts } from '../corpus.js';
import { TEXT_SIZES, textConfig } from '../presets.js';
import { type TextTask, textShape } from '../task.js';
import { cachedFrontier, readCachedFrontier } from './comparison.js';
import { type FrontierPoint, heldOutReference } from './frontier.js';

/** An arm: its hazard-weights spec and objective, the run folder's name, the paper's numbers. */
interface Arm {
  spec?: string;
  objective?: 'elbo';
  folder: string;
  table: 'frozen' | 'learned';
  label: string;
  paper: { deployed: string; uniform?: string; spread: string };
}

export const HAZARD_ARMS: Record<string, Arm> = {
  uniform: {
    folder: 'hybrid', // the text comparison's CADD run: the same config
    table: 'frozen',
    label: 'uniform (w = 1), plain CE',
    paper: { deployed: '0.263 +- 0.000 (150k); 0.27 (tab:e2e-text8)', spread: '1x' },
  },
  'anti-4': {
    spec: 'anti-spread:4',
    folder: 'hybrid-anti-4',
    table: 'frozen',
    label: 'anti-frequency, 4x',
    paper: { deployed: '0.262 +- 0.004', spread: '4x' },
  },
  'anti-2': {
    spec: 'anti-spread:2',
    folder: 'hybrid-anti-2',
    table: 'frozen',
    label: 'anti-frequency, 2x',
    paper: { deployed: '0.272 +- 0.015', spread: '2x' },
  },
  'freq-2': {
    spec: 'freq-spread:2',
    folder: 'hybrid-freq-2',
    table: 'frozen',
    label: 'frequency, 2x',
    paper: { deployed: '0.279 +- 0.013', spread: '2x' },
  },
  'freq-4': {
    spec: 'freq-spread:4',
    folder: 'hybrid-freq-4',
    table: 'frozen',
    label: 'frequency, 4x',
    paper: { deployed: '0.279 +- 0.008', spread: '4x' },
  },
  elbo: {
    objective: 'elbo',
    folder: 'hybrid-elbo',
    table: 'learned',
    label: 'fixed hazard (uniform), ELBO-trained',
    paper: { deployed: '0.13', uniform: '0.13', spread: '1x' },
  },
  'learned-bounded': {
    spec: 'learned-bounded',
    folder: 'hybrid-learned-bounded',
    table: 'learned',
    label: 'learned, bounded (CE-driven)',
    paper: { deployed: '0.066', uniform: '0.10', spread: '4x, frequency (+0.99)' },
  },
  'learned-uniform-ce': {
    spec: 'learned-uniform-ce',
    folder: 'hybrid-learned-uniform-ce',
    table: 'learned',
    label: 'learned, uniform-CE (L_RB-driven)',
    paper: { deployed: '0.014', uniform: '0.14', spread: '403x, anti-frequency (-0.7)' },
  },
};

export interface HazardCompareOptions {
  wait?: boolean; // false (--no-wait): runs other processes hold are left to them (run-queue.ts)
  out: string;
  size: string;
  precision?: Precision; // the networks' compute precision (model/precision.ts)
  steps: number;
  seeds: number[]; // of the frozen table's arms
  learnedSeeds: number[]; // of the learned table's arms (the paper: one seed)
  arms: string[];
  sampler: string; // the frontiers' sampler (one that honours per-anchor hazards)
  n: number;
  nfes: number[]; // the frontiers' NFE budgets, the sweep the best point is taken over
  doc: string;
  command: string;
}

interface ArmRun {
  arm: string;
  seed: number;
  deployed: number; // max valid words >= 5 over the sweep
  uniform?: number; // the same with w = 1 at sampling (learned arms)
  w?: number[]; // learned weights
}

/** The arms' names, checked: 'all' for every one. */
export function parseArms(v: string): string[] {
  const arms = v === 'all' ? Object.keys(HAZARD_ARMS) : v.split(',').map((s) => s.trim());
  for (const a of arms)
    if (!HAZARD_ARMS[a])
      throw new Error(`unknown hazard arm '${a}' (${Object.keys(HAZARD_ARMS).join(', ')}, or all)`);
  return arms;
}

/** The best valid-word fraction (>= 5) over a frontier's whole temperature x NFE sweep. */
const sweepMax = (points: FrontierPoint[]) => maxOf(points.map((p) => p.valid_words5));

/** Spearman's rank correlation (ties share their mean rank). */
export function rankCorrelation(x: number[], y: number[]): number {
  const ranks = (v: number[]) => {
    const order = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const [a, b] = [ranks(x), ranks(y)];
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** A learned run's hazard weights w(a) at the end, cached beside it (null: none learned). */
const LEARNED_WEIGHTS = 'hazard-weights.json';

export async function runHazardComparison(
  task: TextTask,
  o: HazardCompareOptions,
  hooks: TrainHooks = {},
): Promise<ArmRun[] | null> {
  const counts = tokenCounts(task.corpus.train);
  const reference = heldOutReference(task.scorer, task.corpus.valid, TEXT_SIZES[o.size]!.length);
  const frontierOptions = { n: o.n, steps: o.steps, nfes: o.nfes };
  const queue = o.arms.flatMap((name) => {
    const arm = HAZARD_ARMS[name]!;
    return (arm.table === 'frozen' ? o.seeds : o.learnedSeeds).map((seed) => {
      const dir = join(o.out, `${arm.folder}-seed${seed}`);
      const learned = arm.table === 'learned';
      const weightsFile = join(dir, LEARNED_WEIGHTS);
      // frontiers (and learned weights) cached: no training, no weights needed
      const scored = () =>
        readCachedFrontier(dir, o.sampler, frontierOptions) !== null &&
        (!learned ||
          (readCachedFrontier(dir, o.sampler, frontierOptions, { uniformHazard: true }) !== null &&
            readCache(weightsFile, { step: o.steps }) !== undefined));
      const work = async (): Promise<ArmRun | null> => {
        const base = textConfig({
          process: 'hybrid',
          size: o.size,
          seed,
          steps: o.steps,
          precision: o.precision,
        });
        let process = base.process;
        if (arm.spec) process = withHazardWeights(process, arm.spec, counts);
        if (arm.objective) process = withObjective(process, arm.objective);
        const config = { ...base, process, data: task.corpus.source };
        hooks.log?.(`${arm.label}, seed ${seed}`);
        if (!(await trainUnlessScored(dir, config, task, scored(), hooks))) return null;
        const trace = (read: { uniformHazard?: boolean }) =>
          cachedFrontier(dir, name, o.sampler, task, frontierOptions, reference, read, hooks.log);
        const points = await trace({});
        const run: ArmRun = { arm: name, seed, deployed: sweepMax(points) };
        if (learned) {
          const w1 = await trace({ uniformHazard: true });
          run.uniform = sweepMax(w1);
          const w = cached(weightsFile, { step: o.steps }, () => {
            const m = loadTransformer(dir, textShape, 'text');
            return m.model.hazard ? (m.process.config.anchorWeights ?? null) : null;
          });
          if (w) run.w = w;
        }
        hooks.log?.(
          `${dir}: best valid words >= 5 over the sweep ${(100 * run.deployed).toFixed(1)}%${run.uniform === undefined ? '' : `, with w = 1 ${(100 * run.uniform).toFixed(1)}%`}`,
        );
        return run;
      };
      return { dir, work, scored };
    });
  });
  // after every run: the report shows where it is
  return workThrough(queue, {
    log: hooks.log,
    wait: o.wait,
    onResult: (runs) => writeHazardReport(o, runs, counts),
  });
}

/**
 * An arm's verdict against uniform from their deployed scores, one per seed: the difference of
 * the means, whether every seed lies on one side of every uniform seed, and whether the arm's
 * mean - std clears uniform's mean + std, or its mean + std falls below uniform's mean - std (a
 * side with one seed counts with std 0). With one seed on both sides the seed-to-seed spread is
 * unknown: no verdict.
 */
export function hazardVerdict(xs: number[], name: string, uniform: number[]): string {
  if (xs.length === 0 || uniform.length === 0) return 'not measured yet';
  const d = mean(xs) - mean(uniform);
  const head = `${name} ${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)} points against uniform (${xs.length} and ${uniform.length} seeds)`;
  if (xs.length < 2 && uniform.length < 2)
    return `${head}: no verdict from one seed each (the seed-to-seed spread is not known)`;
  const side = separation(xs, uniform);
  const sep =
    side === 'overlap' ? 'the seeds overlap uniform' : `every seed ${side} every uniform seed`;
  const criterion =
    mean(xs) - std(xs) > mean(uniform) + std(uniform)
      ? 'clears uniform'
      : mean(xs) + std(xs) < mean(uniform) - std(uniform)
        ? 'falls below uniform'
        : 'within uniform';
  const neither = criterion === 'within uniform' ? ' (neither clears nor falls below it)' : '';
  return `${head}: ${sep}; ${criterion} under the mean +- std criterion${neither}`;
}

function writeHazardReport(o: HazardCompareOptions, runs: ArmRun[], counts: number[]): void {
  const f = (xs: number[]) =>
    xs.length === 0
      ? '-'
      : xs.length > 1
        ? `${mean(xs).toFixed(3)} +- ${std(xs).toFixed(3)}`
        : mean(xs).toFixed(3);
  const of = (a: string) => runs.filter((r) => r.arm === a);
  const uniform = of('uniform').map((r) => r.deployed);
  const frozen = o.arms.filter((a) => HAZARD_ARMS[a]!.table === 'frozen');
  const learned = o.arms.filter((a) => HAZARD_ARMS[a]!.table === 'learned');
  const frozenRows = frozen.map((a) => {
    const arm = HAZARD_ARMS[a]!;
    const xs = of(a).map((r) => r.deployed);
    return `| ${arm.label} | ${arm.paper.spread} | ${f(xs)} | ${of(a).length} | ${arm.paper.deployed} | ${a === 'uniform' ? '(the reference)' : hazardVerdict(xs, arm.label, uniform)} |`;
  });
  const freq = counts.map((c) => Math.max(c, 1));
  const learnedRows = learned.map((a) => {
    const arm = HAZARD_ARMS[a]!;
    const rs = of(a);
    const w = rs[0]?.w;
    const spread = w
      ? `${(maxOf(w) / minOf(w)).toFixed(2)}x (rank corr. ${rankCorrelation(w.map(Math.log), freq).toFixed(2)})`
      : '1x';
    const dep = rs.map((r) => r.deployed);
    const uni = rs.map((r) => r.uniform ?? Number.NaN);
    return `| ${arm.label} | ${spread} | ${f(dep)} | ${f(uni)} | ${rs.length} | ${arm.paper.spread} | ${arm.paper.deployed} | ${arm.paper.uniform ?? ''} | ${hazardVerdict(dep, 'deployed', uniform)} |`;
  });
  const md = `# Hazards: frozen and learned (app:e2e-hazard) at this machine's scale

The text comparison's network and budget (size \`${o.size}\`${precisionNote(o.precision, ',')}, ${o.steps} steps), the hybrid process (W = I, eta = 1),
the log-linear hazard lambda_t(a) = beta(t) w(a). Metric, as the paper: the valid-word fraction (words of
length >= 5) maximised over the whole sweep of 11 temperatures x NFE ${o.nfes.join(' / ')}, ${o.n} samples a point,
under the \`${o.sampler}\` sampler (it honours per-anchor hazards in its commit probabilities). The paper's numbers
are at 150k steps of the 8M DiT on text8; ours are far smaller, so compare directions and differences, not levels.
Frozen arms: seeds ${o.seeds.join(', ')}; learned arms: seeds ${o.learnedSeeds.join(', ')}${o.learnedSeeds.length === 1 ? ' (one seed, as the paper reports them)' : ''}.
The seeds column says how many are done (the comparison resumes across sessions and rewrites this file after every run).

## Frozen frequency-keyed hazards (tab:frozen-hazard): plain cross-entropy

| hazard | spread | valid words >= 5 | seeds | paper | verdict |
|---|---|---|---|---|---|
${frozenRows.join('\n')}

## Learned hazards (tab:e2e-text8): trained by the ELBO (L_CE + L_RB)

"Deployed" samples with the trained w; "w = 1 sampler" overrides it at sampling only
(\`--uniform-hazard\` of \`sjd sample text\`). Spread is max w / min w of the EMA weights at the end, with the rank
correlation of log w(a) and the character frequency in the training split.

| configuration | spread (ours) | deployed | w = 1 sampler | seeds | paper spread | paper deployed | paper w = 1 | verdict |
|---|---|---|---|---|---|---|---|---|
${learnedRows.join('\n')}

${reproduceFooter(o.command)}`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
}
