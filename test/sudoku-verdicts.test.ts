// The Sudoku comparison's verdicts on the paper's claims (src/lab/sudoku/verdicts.ts), on made-up
// run summaries whose answers are known: runs paired by seed, "every seed" only from two seeds up,
// a reversal named, the binomial SE of a difference, takeoffs with a run that never took off,
// tied takeoffs ordered by the rise (src/lab/sudoku/rise.ts, on curves whose answer is known),
// collapsed seeds, and no section where the models for a claim are absent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunSummary } from '../src/lab/sudoku/options.js';
import { riseStep } from '../src/lab/sudoku/rise.js';
import { claimsSection } from '../src/lab/sudoku/verdicts.js';

/** A run of `model` at `seed`: its adaptive and confidence solve rates, takeoff and rise steps. */
const run = (
  model: string,
  seed: number,
  solveRate: number,
  confidenceRate: number | null,
  takeoff: number | null = 1000,
  rise: number | null = takeoff,
): RunSummary => ({
  model,
  seed,
  dir: `runs/${model}-seed${seed}`,
  solveRate,
  cellAccuracy: 0.9,
  nfeMean: 17,
  confidenceRate,
  takeoff,
  rise,
  collapsed: solveRate < 0.01,
});

/** The section's bullet that starts with `claim` (bold). */
const line = (section: string, claim: RegExp) => {
  const l = section.split('\n').find((x) => x.startsWith('- **') && claim.test(x));
  assert.ok(l, `no bullet for ${claim} in:\n${section}`);
  return l;
};

test('SJD above MDM: every seed, paired by seed, with the differences and the SE of one', () => {
  const runs = [
    run('sjd', 0, 0.7, 0.6),
    run('sjd', 1, 0.72, 0.5),
    run('sjd', 2, 0.69, 0.62),
    run('masked', 0, 0.6, 0.55),
    run('masked', 1, 0.7, 0.55),
    run('masked', 2, 0.68, 0.6),
  ];
  const l = line(claimsSection(runs, ['sjd', 'masked'], 1000), /above MDLM/);
  assert.match(
    l,
    /adaptive sampler: holds on every seed \(3 of 3\); per seed \+10\.0, \+2\.0, \+1\.0 points \(mean \+4\.3;/,
  );
  // sqrt((0.7 * 0.3 + 0.6 * 0.4) / 1000) = 2.12 points, the largest of the three
  assert.match(l, /SE on 1000 puzzles at most 2\.1\)/);
  assert.match(
    l,
    /Confidence policy: holds on 2 of 3 seeds; per seed \+5\.0, -5\.0, \+2\.0 points/,
  );
});

test('a reversal on every seed is named; one shared seed gives its figures and no verdict', () => {
  const reversed = [run('sjd', 0, 0.5, null), run('sjd', 1, 0.5, null)];
  reversed.push(run('masked', 0, 0.6, null), run('masked', 1, 0.7, null));
  const l = line(claimsSection(reversed, ['sjd', 'masked'], 100), /above MDLM/);
  assert.match(l, /reversed on every seed \(2 of 2\); per seed -10\.0, -20\.0 points/);
  assert.doesNotMatch(l, /Confidence policy/); // no such sampler: no clause
  // seeds 1 and 2 of SJD have no MDM run beside them: one pair
  const one = [run('sjd', 0, 0.8, 0.7), run('sjd', 1, 0.9, 0.9), run('sjd', 2, 0.9, 0.9)];
  one.push(run('masked', 0, 0.6, 0.6));
  const single = line(claimsSection(one, ['sjd', 'masked'], 1000), /above MDLM/);
  assert.match(single, /adaptive sampler: one seed: no verdict; per seed \+20\.0 points/);
});

test("CADD's takeoff after SJD's (never is after any), and its collapsed seeds", () => {
  const runs = [
    run('sjd-1.5', 0, 0.7, 0.6, 1000),
    run('sjd-1.5', 1, 0.7, 0.6, 2000),
    run('hybrid', 0, 0.004, 0.0, null),
    run('hybrid', 1, 0.3, 0.2, 5000),
  ];
  const s = claimsSection(runs, ['sjd-1.5', 'hybrid'], 1000);
  assert.match(line(s, /above CADD/), /holds on every seed \(2 of 2\); per seed \+69\.6, \+40\.0/);
  assert.match(
    line(s, /takes off after/),
    /takeoff holds on every seed \(2 of 2\); per seed none against 1000, 5000 against 2000\. Rise \(the first evaluation at half the seed's best\): holds on every seed \(2 of 2\); per seed none against 1000, 5000 against 2000\./,
  );
  assert.match(
    line(s, /collapses/),
    /holds; 1 of 2 seeds below 1% \(final adaptive solve rates 0\.4%, 30\.0%\)/,
  );
  const early = [run('sjd', 0, 0.7, 0.6, 3000), run('sjd', 1, 0.7, 0.6, 3000)];
  early.push(run('hybrid', 0, 0.5, 0.5, 1000), run('hybrid', 1, 0.5, 0.5, 3000));
  const e = claimsSection(early, ['sjd', 'hybrid'], 1000);
  assert.match(
    line(e, /takes off after/),
    /takeoff holds on 0 of 2 seeds; per seed 1000 against 3000, 3000 against 3000/,
  );
  assert.match(line(e, /collapses/), /not seen; 0 of 2 seeds below 1%/);
});

test('takeoffs tied at the first evaluation: the verdict says tied, and the rise orders the seeds', () => {
  const runs = [run('sjd', 0, 0.7, 0.6, 1000, 2000), run('sjd', 1, 0.7, 0.6, 1000, 3000)];
  runs.push(run('hybrid', 0, 0.1, 0.2, 1000, 9000), run('hybrid', 1, 0.2, 0.2, 1000, 3000));
  assert.match(
    line(claimsSection(runs, ['sjd', 'hybrid'], 1000), /takes off after/),
    /takeoff tied on every seed \(2 of 2\); per seed 1000 against 1000, 1000 against 1000\. Rise \(the first evaluation at half the seed's best\): holds on 1 of 2 seeds; per seed 9000 against 2000, 3000 against 3000\./,
  );
});

test("a run's rise: the first evaluation at half its best held-out board accuracy", () => {
  const curve = (xs: number[]) => xs.map((accuracy, i) => ({ step: 1000 * (i + 1), accuracy }));
  // best 0.3: half is 0.15, first reached at the fourth evaluation (0.15 counts)
  assert.equal(riseStep(curve([0.005, 0.02, 0.1, 0.15, 0.3, 0.2])), 4000);
  assert.equal(riseStep(curve([0.25, 0.4, 0.7, 0.6])), 2000); // half of 0.7 is 0.35: 0.4 reaches it
  assert.equal(riseStep(curve([0, 0, 0])), null); // never solved a board
  assert.equal(riseStep([]), null);
});

test('no claim without its models: no section', () => {
  const runs = [run('masked', 0, 0.6, 0.5), run('hybrid', 0, 0.5, 0.4)];
  assert.equal(claimsSection(runs, ['sjd'], 1000), ''); // SJD alone: no claim compares it
  assert.equal(claimsSection(runs, ['sjd', 'masked'], 1000), ''); // no run of SJD to pair
  assert.equal(claimsSection([run('ar-ltr', 0, 0.1, null)], ['ar-ltr', 'ar-solver'], 1000), '');
  // MDM and CADD without SJD: only CADD's collapse is about CADD alone
  const s = claimsSection(runs, ['masked', 'hybrid'], 1000);
  assert.doesNotMatch(s, /above/);
  assert.match(line(s, /collapses/), /one seed: no verdict; 0 of 1 seeds/);
});
