// The process as a run names it (sec:connections, docs/design.md §1): one vocabulary for the library,
// run configs, every task's CLI flags and the README.
//   name      masked | continuous | hybrid | sjd: the process (process/presets.ts holds the four,
//             presets of the one SJD process)
//   blend     the blending matrix W by name (eq:blended-mean): identity | gauss1d | blur2d | sudoku
//   sigmaW    W's bandwidth sigma_W (text, Sudoku: --sigma-w)
//   sigmaB    images: blur2d is the value-space blur B of bandwidth sigma_B (eq:embed-the-blur,
//             --sigma-b); bandwidthOf says which a blend has
//   eta       the unsticking ratio (eq:vp-matched-convolution)
//   schedule  the VP noise schedule of unstuck sites: linear | rank (CANDI's rank degradation)
// Images also train two baselines that are not SJD processes (tab:cifar10_fid): ddpm and bitdiff,
// Gaussian diffusions on pixel values built outside the engine (src/pixel/); the vocabulary names
// them so that runs, comparisons and reports treat every process alike, and resolveProcess
// refuses them.
// A task says which blends fit its positions (BlendShape) and its defaults; resolveProcess turns
// a choice into the SJDProcess.
import { type Blend, gaussian1d, grid2d, identity, sudoku } from './blend.js';
import type { HazardSpec } from './hazard.js';
import { makeProcess, presets } from './presets.js';
import type { SJDProcess } from './process.js';
import { RANK_TEXT8 } from './rank-schedule.js';
import { VP_DEFAULT, type VPConfig } from './vp.js';

// The pixel-space baselines' names (src/pixel/ builds the processes).
export const PIXEL_PROCESSES = ['ddpm', 'bitdiff'] as const;
export type PixelProcessName = (typeof PIXEL_PROCESSES)[number];

export const isPixelProcess = (name: string): name is PixelProcessName =>
  (PIXEL_PROCESSES as readonly string[]).includes(name);

/** The process in words, for reports. */
export function describePixelProcess(name: PixelProcessName): string {
  return name === 'ddpm'
    ? 'DDPM (pixel values, epsilon-prediction)'
    : 'Bit Diffusion (analog bits, x0-prediction)';
}

/** A process as saved in a run's config.json. */
/** The processes by name: the presets of the SJD engine and the pixel-space baselines. */
export type ProcessName = 'masked' | 'continuous' | 'hybrid' | 'sjd' | 'ddpm' | 'bitdiff';

export interface ProcessChoice {
  name: ProcessName;
  blend?: string; // W by name (sjd); identity when absent
  sigmaW?: number; // the bandwidth sigma_W of W (text, Sudoku)
  sigmaB?: number; // images: the bandwidth sigma_B of the blur B of pixel values (blur2d)
  eta?: number;
  hazard?: HazardSpec;
  vp?: VPConfig; // the noise schedule of unstuck sites (default: linear beta)
  mean?: 'embedding' | 'value'; // 'value': W blends raw values, then E (images, eq:embed-the-blur)
  /** a 'value' mean's embedding of blended values: sinusoidal (default) or the learned anchors' */
  valueEmbedding?: 'sinusoidal' | 'anchors';
  /** the per-anchor hazard weights' spec, for the record ('uniform', 'freq:GAMMA') */
  hazardWeights?: string;
  /** w(a), resolved from the spec and the training data (hazard-weights.ts); all 1 when absent */
  anchorWeights?: number[];
  /**
   * what the classifier is trained by: 'ce', the plain cross-entropy of eq:classifier-loss (the
   * default), or 'elbo', the negative ELBO at eta = 1 without its score term (elbo.ts)
   */
  objective?: 'ce' | 'elbo';
}

/** The positions a task's W acts on: L, and for images the grid and channels. */
export interface BlendShape {
  length: number;
  grid?: { height: number; width: number; channels: number };
}

/** The process names, `--process` (the presets of the one SJD process, presets.ts). */
export const PRESETS = Object.keys(presets) as ProcessChoice['name'][];

/** The processes on pixel values that image tasks also train (src/pixel/: not SJD processes). */
export const PIXEL_PRESETS: ProcessChoice['name'][] = [...PIXEL_PROCESSES];

/** The two bandwidths as a user reads them: config.json's key, the flag, the symbol, of what. */
export const BANDWIDTHS = {
  sigmaW: { flag: '--sigma-w', symbol: 'sigma_W', of: 'W' },
  sigmaB: { flag: '--sigma-b', symbol: 'sigma_B', of: 'the blur B of pixel values' },
} as const;

/**
 * A blend's bandwidth: the image blur (blur2d) is the value-space blur B of bandwidth sigma_B
 * (eq:embed-the-blur); every other W has sigma_W.
 */
export function bandwidthOf(blend: string | undefined) {
  const key = blend === 'blur2d' ? 'sigmaB' : 'sigmaW';
  return { key, ...BANDWIDTHS[key] } as const;
}

/** W by name: what it needs of the task's positions (null when they fit), and its builder. */
export const BLENDS: Record<
  string,
  { misfit(shape: BlendShape): string | null; make(shape: BlendShape, bandwidth: number): Blend }
> = {
  identity: { misfit: () => null, make: (s) => identity(s.length) },
  gauss1d: { misfit: () => null, make: (s, sigma) => gaussian1d(s.length, sigma) },
  'gauss1d-row': { misfit: () => null, make: (s, sigma) => gaussian1d(s.length, sigma, 'row') },
  blur2d: {
    misfit: (s) => (s.grid ? null : 'the blur2d blend needs positions on a 2-D grid (images)'),
    make: (s, sigma) => grid2d(s.grid!.height, s.grid!.width, sigma, 'row', s.grid!.channels),
  },
  sudoku: {
    misfit: (s) => (s.length === 81 ? null : `the sudoku blend is for 81 cells, not ${s.length}`),
    make: (_, sigma) => sudoku(sigma),
  },
};

/** The VP noise schedule by name; `rank` is CANDI's rank degradation for anchors of dimension d. */
export const SCHEDULES: Record<string, (anchorDim: number) => VPConfig> = {
  linear: () => VP_DEFAULT,
  rank: (anchorDim) => ({ kind: 'rank', ...RANK_TEXT8, anchorDim, T: 1 }),
};

const known = (what: string, name: string, table: object) =>
  new Error(`unknown ${what} '${name}' (known: ${Object.keys(table).join(', ')})`);

/**
 * W by name over a task's positions at a bandwidth (its sigma_W, or sigma_B of the image blur);
 * refuses a W that does not fit them.
 */
export function makeBlend(name: string, shape: BlendShape, bandwidth: number): Blend {
  const b = BLENDS[name];
  if (!b) throw known('blend', name, BLENDS);
  const misfit = b.misfit(shape);
  if (misfit) throw new Error(misfit);
  return b.make(shape, bandwidth);
}

export function makeSchedule(name: string, anchorDim: number): VPConfig {
  const make = SCHEDULES[name];
  if (!make) throw known('schedule', name, SCHEDULES);
  return make(anchorDim);
}

/** A choice in words, for reports: the literature's name of the process and its W. */
export function describeProcess(c: ProcessChoice): string {
  if (isPixelProcess(c.name)) return describePixelProcess(c.name);
  if (c.name === 'masked') return 'MDLM (masked)';
  if (c.name === 'continuous') return 'continuous (VP)';
  if (c.name === 'hybrid' || !c.blend || c.blend === 'identity') return `CADD (${c.name}, W = I)`;
  if (c.blend === 'blur2d') return `SJD (blur, sigma_B = ${c.sigmaB})`; // images: a blur of values
  return `SJD (${c.blend} W, sigma_W = ${c.sigmaW})`;
}

/** Earlier spellings of the comparisons' model names, still read: the literature's names. */
const EARLIER_NAMES: Record<string, string> = { mdlm: 'masked', cadd: 'hybrid' };

/**
 * A comparison's model name (`--models` of every `sjd compare`): a process ('masked', 'hybrid',
 * 'continuous', 'sjd' with the task's default W and bandwidth) | 'sjd-<sigma>' (the task's
 * default W at that bandwidth: sigma_W, or for images sigma_B of the blur B) | 'sjd-row-<sigma_W>'
 * (the row-normalised 1-D Gaussian, text) | 'sjd-add-<sigma_W>' (the 1-D Gaussian with W_ii = 1,
 * the authors' "additive" kernel) -> the process, W and bandwidth (a config's options).
 * 'mdlm' and 'cadd' are read as 'masked' and 'hybrid' (canonicalProcessName).
 */
export function parseProcessName(name: string): {
  process: ProcessName;
  bandwidth?: number;
  blend?: string;
} {
  const canonical = EARLIER_NAMES[name] ?? name;
  const m = /^sjd-(row-|add-)?(\d+(?:\.\d+)?)$/.exec(canonical);
  if (m && Number(m[2]) > 0) {
    const blend = m[1] === 'row-' ? 'gauss1d-row' : m[1] === 'add-' ? 'gauss1d' : undefined;
    return { process: 'sjd', bandwidth: Number(m[2]), ...(blend && { blend }) };
  }
  const preset = PRESETS.find((p) => p === canonical);
  if (preset) return { process: preset };
  if (isPixelProcess(canonical)) return { process: canonical };
  throw new Error(
    `unknown model '${name}' (${PRESETS.join(', ')}, sjd-SIGMA such as sjd-1.5, sjd-row-SIGMA or sjd-add-SIGMA; images also ${PIXEL_PRESETS.join(', ')})`,
  );
}

/** A model name as the comparisons keep it (run folders, reports): earlier spellings read as today's. */
export function canonicalProcessName(name: string): string {
  parseProcessName(name); // refuses an unknown one
  return EARLIER_NAMES[name] ?? name;
}

/** A VP schedule in words, for reports. */
export function describeSchedule(vp: VPConfig = VP_DEFAULT): string {
  return vp.kind === 'rank'
    ? `CANDI's rank degradation, r from ${vp.rMin} to ${vp.rMax}`
    : `linear VP, beta from ${vp.betaMin} to ${vp.betaMax}`;
}

/**
 * A choice from names: W and eta belong to sjd only; the Gaussian processes (hybrid, sjd) take
 * the schedule. Refuses what a process does not take, with the flag's name.
 */
export function chooseProcess(o: {
  shape: BlendShape; // the task's positions, for W
  name: string;
  blend?: string;
  bandwidth?: number; // W's sigma_W, or sigma_B of the image blur (saved under bandwidthOf's key)
  eta?: number;
  schedule?: string;
  anchorDim: number;
  mean?: 'embedding' | 'value'; // the task's: 'value' for images
  /** the model's anchors: learned ones embed blended values themselves (interpolatedEmbedding) */
  anchors?: 'learned' | 'frozen' | 'fixed';
}): ProcessChoice {
  if (isPixelProcess(o.name)) return choosePixelProcess(o.name, o);
  if (!PRESETS.includes(o.name as ProcessChoice['name'])) throw known('process', o.name, presets);
  const name = o.name as ProcessChoice['name'];
  const gaussian = name === 'hybrid' || name === 'sjd';
  const choice: ProcessChoice = { name };
  if (name === 'sjd') {
    choice.blend = o.blend ?? 'identity';
    if (!BLENDS[choice.blend]) throw known('blend', choice.blend, BLENDS);
    const misfit = BLENDS[choice.blend]!.misfit(o.shape);
    if (misfit) throw new Error(misfit);
    if (choice.blend !== 'identity') {
      const { key, flag } = bandwidthOf(choice.blend);
      if (!(o.bandwidth !== undefined && o.bandwidth > 0))
        throw new Error(`${flag} must be > 0 for the ${choice.blend} blend, got ${o.bandwidth}`);
      choice[key] = o.bandwidth;
    }
    if (o.eta !== undefined) choice.eta = o.eta;
  } else {
    if (o.blend !== undefined && o.blend !== 'identity')
      throw new Error(
        `--blend ${o.blend}: the ${name} process has no blending matrix W (use --process sjd)`,
      );
    if (o.eta !== undefined) throw new Error(`--eta: the ${name} process has no eta (sjd only)`);
  }
  if (gaussian) choice.vp = makeSchedule(o.schedule ?? 'linear', o.anchorDim);
  // A value-space mean blends raw values (eq:embed-the-blur); with W = I it is the anchor itself,
  // and the exact per-anchor mixture P E is kept at sampling.
  if (o.mean === 'value' && choice.blend !== undefined && choice.blend !== 'identity') {
    choice.mean = 'value';
    if (o.anchors !== undefined && o.anchors !== 'fixed') choice.valueEmbedding = 'anchors';
  }
  return choice;
}

/**
 * A pixel-space process (ddpm, bitdiff): images only, and none of the SJD flags (W, eta); its
 * schedule is its own (src/pixel/schedule.ts), so the task's default schedule is not recorded.
 */
function choosePixelProcess(
  name: ProcessChoice['name'],
  o: { shape: BlendShape; blend?: string; eta?: number },
): ProcessChoice {
  if (!o.shape.grid)
    throw new Error(`the ${name} process acts on pixel values: it trains image models only`);
  if (o.blend !== undefined && o.blend !== 'identity')
    throw new Error(`--blend ${o.blend}: the ${name} process has no blending matrix W`);
  if (o.eta !== undefined) throw new Error(`--eta: the ${name} process has no eta (sjd only)`);
  return { name };
}

/**
 * A choice trained by `objective`: 'elbo' (prop:elbo-eta1) needs the hybrid or sjd process at
 * eta = 1; learned hazard weights train by it alone. Refused in one line otherwise.
 */
export function withObjective(p: ProcessChoice, objective: 'ce' | 'elbo'): ProcessChoice {
  if (objective === 'ce') {
    if (p.objective === 'elbo' && p.hazardWeights?.startsWith('learned-'))
      throw new Error(
        `--objective ce: learned hazard weights (${p.hazardWeights}) train by the ELBO`,
      );
    const { objective: _, ...rest } = p;
    return rest;
  }
  if (!(p.name === 'hybrid' || p.name === 'sjd'))
    throw new Error(
      `--objective elbo: the ELBO at eta = 1 (prop:elbo-eta1) is for the hybrid and sjd processes, not ${p.name}`,
    );
  if ((p.eta ?? 1) !== 1)
    throw new Error(`--objective elbo: the ELBO (prop:elbo-eta1) holds at eta = 1, not ${p.eta}`);
  return { ...p, objective: 'elbo' };
}

/** The SJDProcess of a choice over a task's positions (not the pixel-space ddpm and bitdiff). */
export function resolveProcess(choice: ProcessChoice, shape: BlendShape): SJDProcess {
  if (isPixelProcess(choice.name))
    throw new Error(
      `the ${choice.name} process is a Gaussian diffusion on pixel values, not an SJD process`,
    );
  const blend =
    choice.name === 'sjd' && choice.blend && choice.blend !== 'identity'
      ? makeBlend(choice.blend, shape, choice[bandwidthOf(choice.blend).key] ?? 1.5)
      : undefined;
  return makeProcess(choice.name, {
    length: shape.length,
    blend,
    eta: choice.name === 'sjd' ? choice.eta : undefined,
    hazard: choice.hazard,
    vp: choice.vp,
    mean: choice.mean,
    valueEmbedding: choice.valueEmbedding,
    anchorWeights: choice.anchorWeights,
  });
}
