// What `sjd train TASK --resume` does with the command's flags: no flag is ignored. A resumed run
// keeps its config, so a flag that sets a run's config (its task, size, process, network,
// optimiser, seed) is refused when it differs from the run's, naming both; --steps beyond the
// run's end extends it (train/preset-config.ts withSteps: a cosine schedule is stretched to end
// there); --data must be the run's recorded data (used when --data is absent), and the data are
// checked against the run's data hash when training starts (train/manifest.ts checkRunData).
// The evaluation flags shape the run's record (metrics.csv's held-out set), so a run keeps those
// it started with (config.evaluation): absent on resume, they are the run's; given, they must
// equal them. A new run records its data path absolute (config.data; config.dataAs as the user
// spelled it), so it resumes from any folder. Flags that concern this invocation alone (stopping,
// processes) apply as given.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { precisionOf, type train as T, util } from '../index.js';

/** The evaluation flags a run keeps (attribute names; paths among them resolved when recorded). */
const EVALUATION = ['evalData', 'evalSize', 'evalNfe', 'evalSampler', 'evalSamples'] as const;
const PATHS = new Set<string>(['evalData']);

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
  ...EVALUATION,
  // the training data and what selects them: checked by the run's data hash
  'data',
  'levels',
  'limit',
  'steps', // extends the run (below)
]);

type Model = Record<string, unknown>;
const model = (c: T.TrainConfig): Model => ({ ...c.model });

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
  precision: { read: (c) => precisionOf(c.model), says: 'trains at' },
  augment: { read: (c) => c.augment ?? 'digits', says: 'augments by' },
  attention: { read: (c) => model(c).attention ?? 'dense', says: 'has attention' },
  loops: { read: (c) => model(c).loops ?? 1, says: 'loops' },
  deepSupervision: { read: (c) => c.deepSupervision === true, says: 'has deep supervision' },
  anchors: { read: (c) => model(c).anchors ?? 'learned', says: 'has anchors' },
  hazardWeights: { read: (c) => c.process.hazardWeights ?? 'uniform', says: 'has hazard weights' },
  objective: { read: (c) => c.process.objective ?? 'ce', says: 'trains by the objective' },
  holdOut: { read: (c) => c.holdOut ?? 'none', says: 'holds out' },
  length: { read: (c) => c.length ?? 'none', says: 'has length' },
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
  const flags: F =
    saved.data !== undefined && o.data === undefined ? { ...o, data: saved.data } : { ...o };
  // the evaluation the run started with (a run from before config.evaluation: as given)
  const kept = saved.evaluation;
  for (const attr of kept ? EVALUATION : []) {
    const own = kept![attr];
    const v = (o as Record<string, unknown>)[attr];
    const fromCli = cmd.getOptionValueSource(attr) === 'cli';
    if (fromCli && (PATHS.has(attr) ? resolve(String(v)) : v) !== own) {
      const opt = cmd.options.find((x) => x.attributeName() === attr)!;
      throw new Error(
        `${given(cmd, attr, v)}: the run in --out evaluates with ${own === undefined ? `the default ${opt.long}` : `${opt.long} ${own}`}; a resumed run keeps its evaluation (resume without it)`,
      );
    }
    if (!fromCli) (flags as Record<string, unknown>)[attr] = own;
  }
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

/**
 * A new run's config with what it keeps of its flags: the evaluation flags given (paths
 * absolute) and its data path absolute where it names a file or folder, as spelled in dataAs.
 */
export function withRecordedFlags(config: T.TrainConfig, o: object, cmd: Command): T.TrainConfig {
  const evaluation: Record<string, string | number> = {};
  for (const attr of EVALUATION) {
    if (cmd.getOptionValueSource(attr) !== 'cli') continue;
    const v = (o as Record<string, string | number>)[attr]!;
    evaluation[attr] = PATHS.has(attr) ? resolve(String(v)) : v;
  }
  const data = config.data;
  const path = data !== undefined && existsSync(data) && resolve(data) !== data;
  return { ...config, evaluation, ...(path && { data: resolve(data), dataAs: data }) };
}
