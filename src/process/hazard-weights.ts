// Frozen frequency-keyed hazards (app:e2e-hazard, "Fixed non-uniform hazards are nearly
// neutral", tab:frozen-hazard): per-anchor hazard weights w(a) proportional to
// freq(a)^gamma, normalised so that sum_a p0(a) w(a) = 1 (the corruption's mean rate under the
// data distribution p0 is the uniform schedule's), frozen and trained by plain cross-entropy.
// gamma > 0 is frequency-keyed (common tokens have the higher hazard: they leave their anchors
// first forward and commit last in reverse time); gamma < 0 is anti-frequency. The spread
// max_a w(a) / min_a w(a) = (max p0 / min p0)^|gamma| over the tokens seen, so a spread s is
// gamma = +-log(s) / log(max p0 / min p0).
//
// Computed from integer counts c(a) (N = sum c) as w(a) = c(a)^gamma N / sum_b c(b)^(gamma + 1),
// which is the normalised form (p0 = c / N cancels) and at gamma = 0 is N / N = 1 exactly, so
// gamma = 0 through this path is the uniform schedule bit for bit (the paper's plumbing check).
// A token the corpus never shows takes the count of the rarest one it shows (its weight is then
// that token's; it carries no mass in the normalisation either way).
//
// Learned hazards (tab:e2e-text8) are specs too: 'learned-bounded' and 'learned-uniform-ce' name
// the network's learned weights (model/learned-hazard.ts), trained through the negative ELBO
// (elbo.ts; the choice's objective 'elbo'), which needs eta = 1 (prop:elbo-eta1).

import { maxOf, minOf } from '../util/fold.js';
import type { ProcessChoice } from './choice.js';

/** Checks the counts: finite, non-negative integers, at least one positive. */
function checkCounts(counts: ArrayLike<number>): void {
  let total = 0;
  for (let a = 0; a < counts.length; a++) {
    const c = counts[a]!;
    if (!(Number.isInteger(c) && c >= 0))
      throw new Error(`token counts: entry ${a} is ${c}, not a non-negative integer`);
    total += c;
  }
  if (!(total > 0)) throw new Error('token counts: all zero (no token seen)');
  if (!Number.isSafeInteger(total)) throw new Error(`token counts: total ${total} is too large`);
}

/** The counts with unseen tokens raised to the rarest seen token's count. */
function floored(counts: ArrayLike<number>): number[] {
  const seen = Array.from(counts).filter((c) => c > 0);
  const rarest = minOf(seen);
  return Array.from(counts, (c) => (c > 0 ? c : rarest));
}

/** w(a) proportional to freq(a)^gamma with sum_a p0(a) w(a) = 1, from token counts [K]. */
export function frequencyHazardWeights(counts: ArrayLike<number>, gamma: number): Float64Array {
  checkCounts(counts);
  if (!Number.isFinite(gamma))
    throw new Error(`hazard weights: gamma must be finite, got ${gamma}`);
  const N = Array.from(counts).reduce((s, c) => s + c, 0);
  let norm = 0;
  for (let a = 0; a < counts.length; a++) if (counts[a]! > 0) norm += counts[a]! ** (gamma + 1);
  return Float64Array.from(floored(counts), (c) => (c ** gamma * N) / norm);
}

/**
 * The gamma whose weights spread by `spread` (max w / min w over the tokens seen), in the
 * direction `sign`: +1 frequency-keyed, -1 anti-frequency.
 */
export function gammaForSpread(counts: ArrayLike<number>, spread: number, sign: 1 | -1): number {
  checkCounts(counts);
  if (!(Number.isFinite(spread) && spread >= 1))
    throw new Error(`hazard weights: spread must be at least 1, got ${spread}`);
  const seen = Array.from(counts).filter((c) => c > 0);
  const ratio = maxOf(seen) / minOf(seen);
  if (ratio === 1) {
    if (spread === 1) return 0;
    throw new Error('hazard weights: every token seen equally often, so no gamma spreads them');
  }
  return (sign * Math.log(spread)) / Math.log(ratio);
}

/**
 * A run's process with the hazard weights of `spec` for token counts [K] (recorded as given,
 * resolved into anchorWeights; none for 'uniform'). The masked process is refused: MDLM's
 * sampler has one hazard for every token.
 */
export function withHazardWeights(
  p: ProcessChoice,
  spec: string,
  counts: ArrayLike<number>,
): ProcessChoice {
  const h = parseHazardWeights(spec);
  const w = hazardWeightsOf(spec, counts);
  if ((w || h.kind === 'learned') && p.name === 'masked')
    throw new Error(
      `--hazard-weights ${spec}: the masked process's sampler has one hazard for every token (use hybrid or sjd)`,
    );
  if (h.kind === 'learned' && (p.eta ?? 1) !== 1)
    throw new Error(
      `--hazard-weights ${spec}: the ELBO it trains by holds at eta = 1 (prop:elbo-eta1)`,
    );
  const { anchorWeights: _, ...rest } = p;
  const objective = h.kind === 'learned' ? { objective: 'elbo' as const } : {};
  return { ...rest, hazardWeights: spec, ...objective, ...(w && { anchorWeights: w }) };
}

/** The learned-hazard variant a spec names, or null (model/learned-hazard.ts). */
export function learnedHazardOf(spec: string | undefined): 'bounded' | 'uniform-ce' | null {
  if (spec === undefined) return null;
  const h = parseHazardWeights(spec);
  return h.kind === 'learned' ? h.variant : null;
}

/**
 * A `--hazard-weights` spec: 'uniform'; 'freq:GAMMA' (w proportional to freq^GAMMA); or a spread
 * of tab:frozen-hazard, 'freq-spread:S' (frequency-keyed, max w / min w = S) or 'anti-spread:S'
 * (anti-frequency), whose gamma the token counts give (gammaForSpread).
 */
export type HazardWeightsSpec =
  | { kind: 'uniform' }
  | { kind: 'freq'; gamma: number }
  | { kind: 'spread'; spread: number; sign: 1 | -1 }
  | { kind: 'learned'; variant: 'bounded' | 'uniform-ce' };

export function parseHazardWeights(spec: string): HazardWeightsSpec {
  if (spec === 'uniform') return { kind: 'uniform' };
  if (spec === 'learned-bounded') return { kind: 'learned', variant: 'bounded' };
  if (spec === 'learned-uniform-ce') return { kind: 'learned', variant: 'uniform-ce' };
  const m = /^(freq|freq-spread|anti-spread):(.+)$/.exec(spec);
  const x = m && m[2]!.trim() !== '' ? Number(m[2]) : Number.NaN;
  const ok = m && Number.isFinite(x) && (m[1] === 'freq' || x >= 1);
  if (!ok)
    throw new Error(
      `hazard weights '${spec}': expected uniform, freq:GAMMA, freq-spread:S, anti-spread:S (S >= 1), learned-bounded or learned-uniform-ce`,
    );
  if (m[1] === 'freq') return { kind: 'freq', gamma: x };
  return { kind: 'spread', spread: x, sign: m[1] === 'freq-spread' ? 1 : -1 };
}

/** w(a) of a spec for token counts [K]; null for the uniform and learned ones (none stored). */
export function hazardWeightsOf(spec: string, counts: ArrayLike<number>): number[] | null {
  const h = parseHazardWeights(spec);
  if (h.kind === 'uniform' || h.kind === 'learned') return null;
  const gamma = h.kind === 'freq' ? h.gamma : gammaForSpread(counts, h.spread, h.sign);
  return Array.from(frequencyHazardWeights(counts, gamma));
}
