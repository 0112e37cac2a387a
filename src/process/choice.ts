// The process as a run names it (sec:connections, docs/design.md §1): one vocabulary for the library,
// run configs, every task's CLI flags and the README.
//   preset    masked | continuous | hybrid | sjd          (process/presets.ts)
//   blend     the blending matrix W by name (eq:blended-mean): identity | gauss1d | blur2d | sudoku
//   sigmaW    its bandwidth; eta the unsticking ratio (eq:vp-matched-convolution)
//   schedule  the VP noise schedule of unstuck sites: linear | rank (CANDI's rank degradation)
// A task says which blends fit its positions (BlendShape) and its defaults; resolveProcess turns
// a choice into the SJDProcess.
import { type Blend, gaussian1d, grid2d, identity, sudoku } from './blend.js';
import type { HazardSpec } from './hazard.js';
import { makeProcess, presets } from './presets.js';
import type { SJDProcess } from './process.js';
import { RANK_TEXT8 } from './rank-schedule.js';
import { VP_DEFAULT, type VPConfig } from './vp.js';

/** A process as saved in a run's config.json. */
export interface ProcessChoice {
  preset: 'masked' | 'continuous' | 'hybrid' | 'sjd';
  blend?: string; // W by name (sjd); identity when absent
  sigmaW?: number;
  eta?: number;
  hazard?: HazardSpec;
  vp?: VPConfig; // the noise schedule of unstuck sites (default: linear beta)
  mean?: 'embedding' | 'value'; // 'value': W blends raw values, then E (images, eq:embed-the-blur)
  /** a 'value' mean's embedding of blended values: sinusoidal (default) or the learned anchors' */
  valueEmbedding?: 'sinusoidal' | 'anchors';
}

/** The positions a task's W acts on: L, and for images the grid and channels. */
export interface BlendShape {
  length: number;
  grid?: { height: number; width: number; channels: number };
}

export const PRESETS = Object.keys(presets) as ProcessChoice['preset'][];

/** W by name: what it needs of the task's positions (null when they fit), and its builder. */
export const BLENDS: Record<
  string,
  { misfit(shape: BlendShape): string | null; make(shape: BlendShape, sigmaW: number): Blend }
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

/** W by name over a task's positions; refuses a W that does not fit them. */
export function makeBlend(name: string, shape: BlendShape, sigmaW: number): Blend {
  const b = BLENDS[name];
  if (!b) throw known('blend', name, BLENDS);
  const misfit = b.misfit(shape);
  if (misfit) throw new Error(misfit);
  return b.make(shape, sigmaW);
}

export function makeSchedule(name: string, anchorDim: number): VPConfig {
  const make = SCHEDULES[name];
  if (!make) throw known('schedule', name, SCHEDULES);
  return make(anchorDim);
}

/** A choice in words, for reports: the literature's name of the preset and its W. */
export function describeProcess(c: ProcessChoice): string {
  if (c.preset === 'masked') return 'MDLM (masked)';
  if (c.preset === 'continuous') return 'continuous (VP)';
  if (c.preset === 'hybrid' || !c.blend || c.blend === 'identity')
    return `CADD (${c.preset}, W = I)`;
  if (c.blend === 'blur2d') return `SJD (blur, sigma_B = ${c.sigmaW})`; // images: a blur of values
  return `SJD (${c.blend} W, sigma_W = ${c.sigmaW})`;
}

/** Earlier spellings of the comparisons' model names, still read: the literature's names. */
const EARLIER_NAMES: Record<string, string> = { mdlm: 'masked', cadd: 'hybrid' };

/**
 * A comparison's model name (`--models` of every `sjd compare`): a preset ('masked', 'hybrid',
 * 'continuous', 'sjd' with the task's default W and sigma_W) | 'sjd-<sigma_W>' (the task's
 * default W) | 'sjd-row-<sigma_W>' (the row-normalised 1-D Gaussian, text) | 'sjd-add-<sigma_W>'
 * (the 1-D Gaussian with W_ii = 1, the authors' "additive" kernel) -> the preset, W and sigma_W.
 * 'mdlm' and 'cadd' are read as 'masked' and 'hybrid' (canonicalProcessName).
 */
export function parseProcessName(name: string): {
  process: string;
  sigmaW?: number;
  blend?: string;
} {
  const canonical = EARLIER_NAMES[name] ?? name;
  const m = /^sjd-(row-|add-)?(\d+(?:\.\d+)?)$/.exec(canonical);
  if (m && Number(m[2]) > 0) {
    const blend = m[1] === 'row-' ? 'gauss1d-row' : m[1] === 'add-' ? 'gauss1d' : undefined;
    return { process: 'sjd', sigmaW: Number(m[2]), ...(blend && { blend }) };
  }
  if (PRESETS.includes(canonical as ProcessChoice['preset'])) return { process: canonical };
  throw new Error(
    `unknown model '${name}' (${PRESETS.join(', ')}, sjd-SIGMA such as sjd-1.5, sjd-row-SIGMA or sjd-add-SIGMA)`,
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
 * the schedule. Refuses what a preset does not take, with the flag's name.
 */
export function chooseProcess(o: {
  shape: BlendShape; // the task's positions, for W
  preset: string;
  blend?: string;
  sigmaW?: number;
  eta?: number;
  schedule?: string;
  anchorDim: number;
  mean?: 'embedding' | 'value'; // the task's: 'value' for images
  /** the model's anchors: learned ones embed blended values themselves (interpolatedEmbedding) */
  anchors?: 'learned' | 'frozen' | 'fixed';
}): ProcessChoice {
  if (!PRESETS.includes(o.preset as ProcessChoice['preset']))
    throw known('process', o.preset, presets);
  const preset = o.preset as ProcessChoice['preset'];
  const gaussian = preset === 'hybrid' || preset === 'sjd';
  const choice: ProcessChoice = { preset };
  if (preset === 'sjd') {
    choice.blend = o.blend ?? 'identity';
    if (!BLENDS[choice.blend]) throw known('blend', choice.blend, BLENDS);
    const misfit = BLENDS[choice.blend]!.misfit(o.shape);
    if (misfit) throw new Error(misfit);
    if (choice.blend !== 'identity') {
      if (!(o.sigmaW !== undefined && o.sigmaW > 0))
        throw new Error(`--sigma-w must be > 0 for the ${choice.blend} blend, got ${o.sigmaW}`);
      choice.sigmaW = o.sigmaW;
    }
    if (o.eta !== undefined) choice.eta = o.eta;
  } else {
    if (o.blend !== undefined && o.blend !== 'identity')
      throw new Error(
        `--blend ${o.blend}: the ${preset} process has no blending matrix W (use --process sjd)`,
      );
    if (o.eta !== undefined) throw new Error(`--eta: the ${preset} process has no eta (sjd only)`);
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

/** The SJDProcess of a choice over a task's positions. */
export function resolveProcess(choice: ProcessChoice, shape: BlendShape): SJDProcess {
  const blend =
    choice.preset === 'sjd' && choice.blend && choice.blend !== 'identity'
      ? makeBlend(choice.blend, shape, choice.sigmaW ?? 1.5)
      : undefined;
  return makeProcess(choice.preset, {
    length: shape.length,
    blend,
    eta: choice.preset === 'sjd' ? choice.eta : undefined,
    hazard: choice.hazard,
    vp: choice.vp,
    mean: choice.mean,
    valueEmbedding: choice.valueEmbedding,
  });
}
