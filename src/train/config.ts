// A run's resolved configuration (config.json; docs/design.md §4): the process choice, the model,
// the optimiser and the loop's periods. Read from disk through a schema (zod) with bounds, so a
// hand-edited or corrupt file gets a one-line error naming its field instead of a hang or a
// libtorch message; old files are migrated on read (the names of the earlier vocabulary:
// model.name -> model.size, process.kernel -> process.blend, gaussian1d -> gauss1d,
// process.preset -> process.name, and the image blur's process.sigmaW -> process.sigmaB).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DenoiserConfig } from '../model/denoiser.js';
import { PRECISIONS } from '../model/precision.js';
import type { UNetConfig } from '../model/unet.js';
import {
  bandwidthOf,
  isPixelProcess,
  learnedHazardOf,
  type ProcessChoice,
  type TimeSampling,
} from '../process/index.js';
import { maxOf } from '../util/fold.js';
import type { LrSchedule } from './schedule.js';

/** The transformer (denoiser.ts) of sequences and boards. */
export type TransformerChoice = Omit<DenoiserConfig, 'length' | 'classes' | 'structure'> & {
  arch?: 'transformer'; // absent in configs written before the U-Net
  size: string; // tiny | cpu | paper, or a name of the user's
  structure: boolean; // the task's structure embeddings (Sudoku: row, column, box)
};

/**
 * The U-Net (unet.ts) of images; the grid and the levels come from the task. The pixel-space
 * processes (ddpm, bitdiff) train the same layers as a regressor without anchors
 * (unet-regressor.ts): their configs have no anchorDim and anchors.
 */
export type UNetChoice = Omit<
  UNetConfig,
  'height' | 'width' | 'channels' | 'classes' | 'anchorDim' | 'anchors'
> &
  Partial<Pick<UNetConfig, 'anchorDim' | 'anchors'>> & {
    arch: 'unet';
    size: string;
  };

export type ModelChoice = TransformerChoice | UNetChoice;

/** A config whose network is the transformer (Sudoku, text). */
export type TransformerConfig = TrainConfig & { model: TransformerChoice };

export interface TrainConfig {
  task: string;
  seed: number;
  process: ProcessChoice;
  model: ModelChoice;
  batch: number;
  steps: number;
  lr: LrSchedule;
  weightDecay: number;
  clip: number;
  ema: number;
  timeSampling: TimeSampling;
  logEvery: number;
  evalEvery: number;
  checkpointEvery: number;
  length?: number; // text: the sequence length
  data?: string; // the training data as given (text: the corpus folder; Sudoku, images: --data)
  augment?: 'none' | 'digits' | 'full'; // Sudoku: the symmetries drawn per training board
  deepSupervision?: boolean; // a looped transformer's cross-entropy at every loop, averaged
  image?: { height: number; width: number; channels: number; levels: number }; // images
  alphabet?: { symbols: string[]; pad: boolean }; // sequences: one token a symbol, then PAD
  shards?: number; // data-parallel: the global batch in this many parts (data-parallel.ts)
  /** warm start: the weights of a run (its EMA) or model folder, and their sha256 */
  init?: { from: string; sha256?: string };
}

// the bounds first: a number past them is refused naming them (not the safe-integer limit)
const int = (min: number, max: number) => z.number().min(min).max(max).int();
const pos = z.number().positive().finite();

const hazard = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('polynomial-alpha'), p: pos.optional(), eps: pos.optional() }),
  z.object({ kind: z.literal('log-linear'), eps: pos.optional() }),
  z.object({ kind: z.literal('cosine'), eps: pos.optional() }),
  z.object({ kind: z.literal('constant'), rate: z.number().min(0).finite() }),
  z.object({ kind: z.literal('linear'), a: z.number().finite(), b: z.number().finite() }),
  z.object({ kind: z.literal('instant') }),
]);

const vp = z.union([
  z.object({ kind: z.literal('linear').optional(), betaMin: pos, betaMax: pos, T: pos }),
  z.object({
    kind: z.literal('rank'),
    rMin: z.number().gt(0).lt(0.5),
    rMax: z.number().gt(0).lt(0.5),
    anchorDim: int(1, 4096),
    T: pos,
  }),
]);

const bandwidth = z.number().min(0).max(1000).optional();

// The bandwidth is the blend's own (bandwidthOf): sigmaB for the image blur B, sigmaW for W.
const process = z
  .object({
    name: z.enum(['masked', 'continuous', 'hybrid', 'sjd', 'ddpm', 'bitdiff']),
    blend: z.string().optional(),
    sigmaW: bandwidth,
    sigmaB: bandwidth,
    eta: z.number().gt(0).max(1).optional(),
    hazard: hazard.optional(),
    vp: vp.optional(),
    mean: z.enum(['embedding', 'value']).optional(),
    valueEmbedding: z.enum(['sinusoidal', 'anchors']).optional(),
    hazardWeights: z.string().optional(), // the spec, for the record (hazard-weights.ts)
    anchorWeights: z.array(z.number().positive().finite()).min(1).optional(), // w(a)
    objective: z.enum(['ce', 'elbo']).optional(), // absent: 'ce'
  })
  .refine((p) => p.sigmaB === undefined || bandwidthOf(p.blend).key === 'sigmaB', {
    message: 'sigma_B is the bandwidth of the image blur B, only with blend blur2d (W has sigmaW)',
    path: ['sigmaB'],
  })
  .refine((p) => p.sigmaW === undefined || bandwidthOf(p.blend).key === 'sigmaW', {
    message: 'blend blur2d is the image blur B: its bandwidth is sigmaB (sigma_B), not sigmaW',
    path: ['sigmaW'],
  })
  .refine(
    (p) => p.objective !== 'elbo' || ((p.eta ?? 1) === 1 && ['hybrid', 'sjd'].includes(p.name)),
    {
      message: 'the ELBO objective (prop:elbo-eta1) is for the hybrid and sjd processes at eta = 1',
      path: ['objective'],
    },
  )
  .refine((p) => learnedHazardOf(p.hazardWeights) === null || p.objective === 'elbo', {
    message: 'learned hazard weights train by the ELBO (objective elbo)',
    path: ['hazardWeights'],
  })
  .refine((p) => learnedHazardOf(p.hazardWeights) === null || p.anchorWeights === undefined, {
    message: 'learned hazard weights live in the network, not in anchorWeights',
    path: ['anchorWeights'],
  });

const transformer = z
  .object({
    arch: z.literal('transformer').optional(),
    size: z.string(),
    anchorDim: int(1, 4096),
    anchors: z.enum(['learned', 'frozen', 'fixed']),
    structure: z.boolean(),
    width: int(1, 8192),
    depth: int(1, 256),
    heads: int(1, 256),
    mlpHidden: int(1, 65536),
    dropout: z.number().min(0).lt(1).optional(),
    conditioning: z.enum(['add', 'adaln']).optional(),
    rotary: z.boolean().optional(),
    attention: z.enum(['dense', 'peers', 'typed']).optional(), // absent = 'dense'
    loops: int(1, 64).optional(), // absent = 1
    precision: z.enum(PRECISIONS).optional(), // absent = float32
  })
  .refine((m) => m.width % m.heads === 0, { message: 'width must be a multiple of heads' })
  .refine((m) => (m.attention ?? 'dense') === 'dense' || m.structure, {
    message: "other than 'dense' needs the task's structure (model.structure true)",
    path: ['attention'],
  })
  .refine((m) => m.depth * (4 * m.width * m.width + 2 * m.width * m.mlpHidden) <= 2e9, {
    message: 'more than 2e9 parameters',
  });

const unet = z
  .object({
    arch: z.literal('unet'),
    size: z.string(),
    anchorDim: int(2, 4096).optional(), // absent for the pixel-space regressor
    anchors: z.enum(['learned', 'frozen', 'fixed']).optional(),
    base: int(1, 4096),
    mults: z.array(int(1, 64)).min(1).max(8),
    blocks: int(1, 16),
    heads: int(1, 256),
    attention: z.array(int(1, 128)).min(1).max(8).optional(), // absent = the lowest level only
    dropout: z.number().min(0).lt(1).optional(),
    precision: z.enum(PRECISIONS).optional(), // absent = float32
  })
  .strict() // a key the U-Net does not read is a mistake, not a setting
  .refine((m) => (m.base * m.mults.at(-1)!) % m.heads === 0, {
    message: 'the channels of the lowest level must be a multiple of heads',
  })
  .refine((m) => (m.attention ?? []).every((f) => m.mults.some((_, l) => 2 ** l === f)), {
    message: 'attention names downsampling factors of the levels (1, 2, 4, ...)',
  })
  .refine((m) => m.blocks * m.mults.length * (m.base * maxOf(m.mults)) ** 2 * 18 <= 2e9, {
    message: 'more than 2e9 parameters',
  });

/** The network's schema by its `arch` (absent: the transformer). */
const modelSchema = (m: unknown) =>
  typeof m === 'object' && m !== null && (m as { arch?: unknown }).arch === 'unet'
    ? unet
    : transformer;

const schema = z.object({
  task: z.string(),
  seed: int(0, 2 ** 31 - 1),
  process,
  model: z.looseObject({}), // checked by modelSchema
  batch: int(1, 1_000_000),
  steps: int(1, 1_000_000_000),
  lr: z.object({
    kind: z.enum(['cosine', 'constant']),
    lr: pos,
    warmup: int(0, 1_000_000_000),
    total: int(1, 1_000_000_000),
    minLr: z.number().min(0).optional(),
  }),
  weightDecay: z.number().min(0).max(10),
  clip: pos,
  ema: z.number().min(0).lt(1),
  timeSampling: z.enum(['uniform', 'antithetic', 'stratified']),
  logEvery: int(1, 1_000_000_000),
  evalEvery: int(1, 1_000_000_000),
  checkpointEvery: int(1, 1_000_000_000),
  length: int(1, 1_000_000).optional(),
  data: z.string().optional(),
  augment: z.enum(['none', 'digits', 'full']).optional(),
  /** the cross-entropy at every loop of a looped transformer, averaged (sjd-loss.ts) */
  deepSupervision: z.boolean().optional(),
  shards: int(1, 65_536).optional(),
  init: z.object({ from: z.string().min(1), sha256: z.string().optional() }).optional(),
  alphabet: z
    .object({
      symbols: z.array(z.string().min(1)).min(2).max(65_535),
      pad: z.boolean(),
    })
    .optional(),
  image: z
    .object({
      height: int(1, 4096),
      width: int(1, 4096),
      channels: int(1, 16),
      levels: int(2, 256),
    })
    .optional(),
});

/** `from` renamed `to` in an object of a config, its value mapped; both there: kept for the schema. */
function rename(
  o: Record<string, unknown> | undefined,
  from: string,
  to: string,
  value = (v: unknown) => v,
): void {
  if (!o || typeof o !== 'object' || !(from in o) || o[to] !== undefined) return;
  o[to] = value(o[from]);
  delete o[from];
}

/** Renames of the earlier vocabulary, applied to a parsed config.json before validation. */
function migrate(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const c = structuredClone(raw) as Record<string, Record<string, unknown> | undefined>;
  rename(c.model, 'name', 'size');
  const p = c.process;
  rename(p, 'kernel', 'blend', (k) => (k === 'gaussian1d' ? 'gauss1d' : k));
  rename(p, 'preset', 'name');
  if (p?.blend === 'blur2d') rename(p, 'sigmaW', 'sigmaB'); // the image blur B's is sigma_B
  return c;
}

/**
 * The network's anchors against the process: the SJD processes need them, the pixel-space ones
 * (a regressor of values or bits) have none. Null when they fit.
 */
function anchorMisfit(process: string, m: { anchorDim?: number; anchors?: string }): string | null {
  const has = m.anchorDim !== undefined || m.anchors !== undefined;
  const needs = !isPixelProcess(process);
  if (has && !needs)
    return `the ${process} process's network has no anchors (no anchorDim, anchors)`;
  if (!(m.anchorDim !== undefined && m.anchors !== undefined) && needs)
    return `the ${process} process needs the network's anchors (anchorDim and anchors)`;
  return null;
}

/** Validates a config (e.g. parsed from disk); `where` names it in the one-line error. */
export function parseConfig(raw: unknown, where: string): TrainConfig {
  const fail = (issue: z.core.$ZodIssue, prefix: PropertyKey[] = []) => {
    const field = [...prefix, ...issue.path].join('.') || 'the config';
    return new Error(`${where}: ${field}: ${issue.message}`);
  };
  const r = schema.safeParse(migrate(raw));
  if (!r.success) throw fail(r.error.issues[0]!);
  const m = modelSchema(r.data.model).safeParse(r.data.model);
  if (!m.success) throw fail(m.error.issues[0]!, ['model']);
  const misfit = anchorMisfit(r.data.process.name, m.data);
  if (misfit) throw new Error(`${where}: model.anchors: ${misfit}`);
  if (r.data.deepSupervision) {
    const loops = 'loops' in m.data ? (m.data.loops ?? 1) : 0;
    if (loops < 2)
      throw new Error(
        `${where}: deepSupervision: needs a transformer that loops its blocks (model.loops >= 2)`,
      );
    if (r.data.process.objective === 'elbo')
      throw new Error(`${where}: deepSupervision: trains by cross-entropy, not the ELBO objective`);
  }
  return { ...r.data, model: m.data } as TrainConfig;
}

/** Reads and validates a config.json. */
export function readConfig(path: string): TrainConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`${path}: cannot be read`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not valid JSON`);
  }
  return parseConfig(raw, path);
}
