// The report of the hazard tables of app:e2e-hazard (hazards.ts): the paper's numbers
// beside ours, a verdict per row against uniform (mean +- std, whether every seed is above or
// below), and for learned weights their spread (max w / min w) and the rank correlation of log w
// with character frequency, as the paper reports them. Rewritten after every run, so it shows
// where the comparison is.
import { dirname } from 'node:path';
import { precisionNote } from '../../model/precision.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { maxOf, minOf } from '../../util/fold.js';
import { mean, separation, std } from '../../util/stats.js';
import { reproduceFooter } from '../comparison-report.js';
import { type ArmRun, HAZARD_ARMS } from './hazard-arms.js';
import type { HazardCompareOptions } from './hazard-options.js';

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

/** Writes the report to o.doc from the runs done so far. */
export function writeHazardReport(o: HazardCompareOptions, runs: ArmRun[], counts: number[]): void {
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
