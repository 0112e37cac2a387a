// What `sjd train TASK --resume` does with the command's flags: no flag is ignored. A resumed run
// keeps its config, so a flag that sets a run's config (its task, size, process, network,
// optimiser, seed) is refused when it differs from the run's, naming both; --steps beyond the
// run's end extends it (train/preset-config.ts withSteps: a cosine schedule is stretched to end
// there); --data must be the run's recorded data (used when --data is absent), and the data are
// checked against the run's data hash when training starts (train/manifest.ts checkRunData).
// Flags that concern this invocation alone (evaluation, stopping, processes) apply as given.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type train as T, util } from '../index.js';

/** Flags of one invocation, honoured on resume as on a new run (attribute names). */
const INVOCATION = new Set([
  'out',
  'resume',
  'stopAfter',
  'init', // refused beside --resume by runOptions
  'nproc',
  'rank',
  'worldSize',
  'master',
  'interface',
  'rendezvousTimeout',
  'shards', // checked against the run's by withShards
  'evalData',
  'evalSize',
  'evalNfe',
  'evalSampler',
  'evalSamples',
  // the training data and what selects them: checked by the run's data hash
  'data',
  'levels',
  'limit',
  'steps', // extends the run (below)
]);

type Model = Record<string, unknown>;
const model = (c: T.TrainConfig) => c.model as unknown as Model;

/** Flags that set a run's config: the config's value and how the refusal says it. */
const FIXED: Record<string, { read: (c: T.TrainConfig) => unknown; says: string }> = {
  size: { read: (c) => c.model.size, says: 'has size' },
  process: { read: (c) => c.process.name, says: 'trains the process' },
  blend: { read: (c) => c.process.blend ?? 'none', says: 'blends by' },
  sigmaW: { read: (c) => c.process.sigmaW ?? 'none', says: 'has sigma_W' },
  sigmaB: { read: (c) => c.process.sigmaB ?? 'none', says: 'has sigma_B' },
  eta: { read: (c) => c.process.eta ?? 1, says: 'has eta' },
  schedule: {
    read: (c) => (c.process.vp ? (c.process.vp.kind ?? 'linear') : 'none'),
    says: 'has the noise schedule',
  },
  seed: { read: (c) => c.seed, says: 'has seed' },
  batch: { read: (c) => c.batch, says: 'has batch' },
  lr: { read: (c) => c.lr.lr, says: 'has peak learning rate' },
  warmup: { read: (c) => c.lr.warmup, says: 'warms up over' },
  evalEvery: { read: (c) => c.evalEvery, says: 'evaluates every' },
  precision: { read: (c) => c.model.precision ?? 'float32', says: 'trains at' },
  augment: { read: (c) => c.augment ?? 'digits', says: 'augments by' },
  attention: { read: (c) => model(c).attention ?? 'dense', says: 'has attention' },
  loops: { read: (c) => model(c).loops ?? 1, says: 'loops' },
  deepSupervision: { read: (c) => c.deepSupervision === true, says: 'has deep supervision' },
  anchors: { read: (c) => model(c).anchors ?? 'learned', says: 'has anchors' },
  hazardWeights: { read: (c) => c.process.hazardWeights ?? 'uniform', says: 'has hazard weights' },
  objective: { read: (c) => c.process.objective ?? 'ce', says: 'trains by the objective' },
};

/** The flag as typed: its long name, and its value where it takes one. */
function given(cmd: Command, attr: string, value: unknown): string {
  const opt = cmd.options.find((x) => x.attributeName() === attr)!;
  return opt.isBoolean() ? opt.long! : `${opt.long} ${String(value)}`;
}

/**
 * The flags of a resumed run checked against its config `saved` (at checkpoint step `at`), in
 * one line naming the flag: a different task, a config flag that differs, --steps below the
 * run's end, --data other than the run's. Returns the flags to prepare the run with (the run's
 * recorded data when --data is absent) and, with --steps beyond the run's end, the new end.
 */
export function resumeFlags<F extends { data?: string; steps?: number }>(
  task: string,
  o: F,
  cmd: Command,
  saved: T.TrainConfig,
  at: number,
): { flags: F; extendTo?: number } {
  if (saved.task !== task)
    throw new Error(
      `--resume: ${(o as { out?: string }).out} holds ${util.withArticle(saved.task)} run, not ${util.withArticle(task)} run; resume it with sjd train ${saved.task}`,
    );
  for (const opt of cmd.options) {
    const attr = opt.attributeName();
    if (cmd.getOptionValueSource(attr) !== 'cli' || INVOCATION.has(attr)) continue;
    const v = (o as Record<string, unknown>)[attr];
    const fixed = FIXED[attr];
    if (!fixed)
      throw new Error(
        `${opt.long}: set when a run starts; the run in --out keeps its own (resume without it)`,
      );
    const own = fixed.read(saved);
    if (v !== own) throw new Error(`${given(cmd, attr, v)}: the run in --out ${fixed.says} ${own}`);
  }
  if (o.steps !== undefined && o.steps < saved.steps)
    throw new Error(
      `--steps ${o.steps}: the run in --out is configured for ${saved.steps} steps (at step ${at}); --resume extends a run, never shortens it (--stop-after N stops after N more steps)`,
    );
  if (saved.data !== undefined && o.data !== undefined && resolve(o.data) !== resolve(saved.data))
    throw new Error(
      `--data ${o.data}: the run in --out trains on ${saved.data}; a resumed run keeps its data`,
    );
  const flags = saved.data !== undefined && o.data === undefined ? { ...o, data: saved.data } : o;
  const extendTo = o.steps !== undefined && o.steps > saved.steps ? o.steps : undefined;
  return { flags, ...(extendTo !== undefined && { extendTo }) };
}

/** The line a run extended on resume prints: its old and new end, and what the schedule does. */
export function extensionNote(saved: T.TrainConfig, steps: number, at: number): string {
  const lr =
    saved.lr.kind === 'cosine'
      ? `its cosine learning rate is stretched to reach its floor at step ${steps}, so from step ${at} it follows the longer curve`
      : 'its learning rate is constant';
  return `extending the run from ${saved.steps} to ${steps} steps; ${lr}`;
}
