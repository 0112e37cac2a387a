// The hazard tables of app:e2e-hazard at this machine's scale, on the text comparison's network,
// budget and samplers, at W = I, eta = 1 (the hybrid process): frozen frequency-keyed hazards
// (tab:frozen-hazard) and hazards learned by the ELBO (tab:e2e-text8), the arms of
// hazard-arms.ts. Each arm x seed is a resumable run folder (the uniform arm's is the text
// comparison's hybrid run, shared when --out is the same); frontiers (and a learned run's
// weights) are cached beside them, and a run with all of them cached is not trained again (its
// checkpoint may be gone). The paper's metric: the valid-word fraction (>= 5) maximised over the
// whole temperature x NFE sweep. The report, with the paper's numbers beside ours and a verdict
// per row, is hazard-report.ts's.
import { join } from 'node:path';
import { withHazardWeights, withObjective } from '../../process/index.js';
import { tokenCounts } from '../../tasks/text/corpus.js';
import { type FrontierPoint, heldOutReference } from '../../tasks/text/frontier.js';
import { TEXT_SIZES, textConfig } from '../../tasks/text/presets.js';
import { type TextTask, textShape } from '../../tasks/text/task.js';
import { loadTransformer, type TrainHooks } from '../../train/index.js';
import { cached, readCache } from '../../util/cache.js';
import { maxOf } from '../../util/fold.js';
import { workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';
import { cachedFrontier, readCachedFrontier } from './frontier-cache.js';
import { type ArmRun, HAZARD_ARMS } from './hazard-arms.js';
import type { HazardCompareOptions } from './hazard-options.js';
import { writeHazardReport } from './hazard-report.js';

/** The best valid-word fraction (>= 5) over a frontier's whole temperature x NFE sweep. */
const sweepMax = (points: FrontierPoint[]) => maxOf(points.map((p) => p.valid_words5));

/** A learned run's hazard weights w(a) at the end, cached beside it (null: none learned). */
const LEARNED_WEIGHTS = 'hazard-weights.json';

/** What every arm x seed of the queue shares: the task, the options, the counts, the reference. */
interface HazardQueue {
  task: TextTask;
  o: HazardCompareOptions;
  counts: number[];
  reference: ReturnType<typeof heldOutReference>;
  hooks: TrainHooks;
}

/** A learned run's scores beside the deployed one: with w = 1, and its weights w(a). */
async function learnedScores(
  q: HazardQueue,
  dir: string,
  run: ArmRun,
  trace: (read: { uniformHazard?: boolean }) => Promise<FrontierPoint[]>,
): Promise<void> {
  run.uniform = sweepMax(await trace({ uniformHazard: true }));
  const w = cached(join(dir, LEARNED_WEIGHTS), { step: q.o.steps }, () => {
    const m = loadTransformer(dir, textShape, 'text');
    return m.model.hazard ? (m.process.config.anchorWeights ?? null) : null;
  });
  if (w) run.w = w;
}

/** One arm x seed of the queue: its folder, whether it is scored already, and its work. */
function armItem(q: HazardQueue, name: string, seed: number) {
  const { task, o, hooks } = q;
  const arm = HAZARD_ARMS[name]!;
  const dir = join(o.out, `${arm.folder}-seed${seed}`);
  const learned = arm.table === 'learned';
  const frontierOptions = { n: o.n, steps: o.steps, nfes: o.nfes };
  // frontiers (and learned weights) cached: no training, no weights needed
  const scored = () =>
    readCachedFrontier(dir, o.sampler, frontierOptions) !== null &&
    (!learned ||
      (readCachedFrontier(dir, o.sampler, frontierOptions, { uniformHazard: true }) !== null &&
        readCache(join(dir, LEARNED_WEIGHTS), { step: o.steps }) !== undefined));
  const work = async (): Promise<ArmRun | null> => {
    const base = textConfig({
      process: 'hybrid',
      size: o.size,
      seed,
      steps: o.steps,
      precision: o.precision,
    });
    let process = base.process;
    if (arm.spec) process = withHazardWeights(process, arm.spec, q.counts);
    if (arm.objective) process = withObjective(process, arm.objective);
    const config = { ...base, process, data: task.corpus.source };
    hooks.log?.(`${arm.label}, seed ${seed}`);
    if (!(await trainUnlessScored(dir, config, task, scored(), hooks))) return null;
    const trace = (read: { uniformHazard?: boolean }) =>
      cachedFrontier(dir, name, o.sampler, task, frontierOptions, q.reference, read, hooks.log);
    const run: ArmRun = { arm: name, seed, deployed: sweepMax(await trace({})) };
    if (learned) await learnedScores(q, dir, run, trace);
    hooks.log?.(
      `${dir}: best valid words >= 5 over the sweep ${(100 * run.deployed).toFixed(1)}%${run.uniform === undefined ? '' : `, with w = 1 ${(100 * run.uniform).toFixed(1)}%`}`,
    );
    return run;
  };
  return { dir, work, scored };
}

export async function runHazardComparison(
  task: TextTask,
  o: HazardCompareOptions,
  hooks: TrainHooks = {},
): Promise<ArmRun[] | null> {
  const counts = tokenCounts(task.corpus.train);
  const reference = heldOutReference(task.scorer, task.corpus.valid, TEXT_SIZES[o.size]!.length);
  const q: HazardQueue = { task, o, counts, reference, hooks };
  const queue = o.arms.flatMap((name) =>
    (HAZARD_ARMS[name]!.table === 'frozen' ? o.seeds : o.learnedSeeds).map((seed) =>
      armItem(q, name, seed),
    ),
  );
  // after every run: the report shows where it is
  return workThrough(queue, {
    log: hooks.log,
    wait: o.wait,
    onResult: (runs) => writeHazardReport(o, runs, counts),
  });
}
