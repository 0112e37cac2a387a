// The schema of a run's config.json (zod; read by config.ts): every field with its bounds, so a
// hand-edited or corrupt file is refused naming its field instead of hanging or failing inside
// libtorch; the process's fields checked against each other (a bandwidth is its blend's own, the
// ELBO objective only where prop:elbo-eta1 holds), and the network's by its `arch` (the
// transformer of denoiser.ts, the U-Net of unet.ts), each within 2e9 parameters.
import { z } from 'zod';
import { PRECISIONS } from '../model/precision.js';
import { bandwidthOf, learnedHazardOf } from '../process/index.js';
import { MAX_SEED } from '../util/flag-values.js';
import { maxOf } from '../util/fold.js';

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
export const modelSchema = (m: unknown) =>
  typeof m === 'object' && m !== null && (m as { arch?: unknown }).arch === 'unet'
    ? unet
    : transformer;

export const configSchema = z.object({
  task: z.string(),
  seed: int(0, MAX_SEED),
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
  dataAs: z.string().optional(),
  holdOut: z.string().min(1).max(12).optional(),
  evaluation: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  augment: z.enum(['none', 'digits', 'full']).optional(),
  /** the cross-entropy at every loop of a looped transformer, averaged (sjd-loss.ts) */
  deepSupervision: z.boolean().optional(),
  shards: int(1, 65_536).optional(),
  init: z.object({ from: z.string().min(1), sha256: z.string().optional() }).optional(),
  tokenizer: z
    .object({
      spec: z.string().min(1),
      name: z.string(),
      vocab: int(2, 1 << 24),
      json: z.string().optional(),
    })
    .optional(),
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
