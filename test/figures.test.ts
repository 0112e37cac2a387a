// The paper's figures (src/figures/, `sjd figure`): the DHM target surface of fig:eta-commit
// against its closed form at eta = 1 (lambda S / (1 - S) = 1/t for the default hazard) and
// against the mixture integral of eq:dhm-target taken by brute force below; the reverse paths
// the samplers take (one commit a site, on its anchor for good; each preset's own behaviour in
// fig:diffusion_comparison); seeds; and the command end to end: an SVG that parses as XML with
// the panels' titles, an existing file refused without --force, bad input refused in one line.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import {
  commitIndex,
  comparisonPaths,
  coordinate,
  DIFFUSION_COMPARISON,
  diffusionComparisonFigure,
  ETA_COMMIT,
  etaCommitPanel,
  hazardSurface,
  pointMassClassifier,
  type ReversePaths,
  reversePaths,
} from '../src/figures/index.js';
import { logTargetClosedForm, makeProcess } from '../src/process/index.js';
import * as torch from '../src/torch/index.js';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const f64 = (xs: number[]) => Float64Array.from(xs);

test('at eta = 1 the surface is the closed form lambda S / (1 - S) = 1/t, the same at every y', () => {
  const proc = makeProcess('sjd', { length: 1, eta: 1 });
  const t = [1e-3, 0.01, 0.3, 0.9, 0.999];
  const y = [-50, -3, 0, 1, 2.5, 50];
  const s = hazardSurface(proc, 1, f64(t), f64(y));
  t.forEach((ti, i) => {
    const closed = Math.exp(torch.tidy(() => logTargetClosedForm(proc, ti, 1).item()));
    assert.ok(Math.abs(closed * ti - 1) < 1e-9, `lambda S / (1 - S) = ${closed} at t = ${ti}`);
    for (let j = 0; j < y.length; j++) assert.equal(s.value[i * y.length + j], closed);
  });
});

test('the surface is non-negative and finite at every eta, at the edges of t and y', () => {
  for (const eta of [0.1, ...ETA_COMMIT.etas]) {
    const proc = makeProcess('sjd', { length: 1, eta });
    const t = f64([1e-4, 1e-3, 0.5, 1 - 1e-6, 1]);
    const s = hazardSurface(proc, 1, t, f64([-1e3, -3, 0, 1, 3, 1e3]));
    for (const v of s.value) assert.ok(Number.isFinite(v) && v >= 0, `eta ${eta}: ${v}`);
  }
});

/**
 * eq:dhm-target for one anchor by brute force: lambda_t S(t) r_t(y) / p_t^ac(y), with
 * p_t^ac(y) = int_0^t lambda_tau S(tau) N(y; alpha(t) a, v_t(tau)) dtau on a fine midpoint rule
 * (lambda_tau S(tau) = 1/T for the default hazard, S(t) = 1 - t/T).
 */
function bruteForceTarget(eta: number, a: number, t: number, y: number): number {
  const proc = makeProcess('sjd', { length: 1, eta });
  const vp = proc.vp;
  const normal = (x: number, m: number, v: number) =>
    Math.exp(-((x - m) ** 2) / (2 * v)) / Math.sqrt(2 * Math.PI * v);
  const m = vp.alpha(t) * a;
  const n = 200_000;
  let pac = 0;
  for (let i = 0; i < n; i++) pac += normal(y, m, vp.v(t, ((i + 0.5) * t) / n, eta)) * (t / n);
  return normal(y, m, eta * eta * vp.sigma2(t)) / pac; // lambda_t S(t) = 1 as well
}

test('at eta < 1 the surface is the mixture ratio of eq:dhm-target (a brute-force integral)', () => {
  // The engine's quadrature (33 Simpson nodes, as the samplers read it) within 1%; refined, the
  // same code converges to the integral.
  for (const [n, tolerance] of [
    [33, 1e-2],
    [513, 5e-5],
  ] as const)
    for (const eta of [0.25, 0.5, 0.75])
      for (const t of [0.1, 0.5, 0.9]) {
        const proc = makeProcess('sjd', { length: 1, eta }).withQuadrature('simpson', n);
        const y = [-1, 0, 0.5, 1, 2];
        const s = hazardSurface(proc, 1, f64([t]), f64(y));
        y.forEach((yj, j) => {
          const want = bruteForceTarget(eta, 1, t, yj);
          const got = s.value[j]!;
          assert.ok(
            Math.abs(got / want - 1) <= tolerance,
            `${n} nodes, eta ${eta}, t ${t}, y ${yj}: ${got} against ${want}`,
          );
        });
      }
});

/** Row b, site l: committed from one grid time on, never before; the sequence of its flags. */
function commitsOnce(p: ReversePaths, b: number, l: number): number {
  const at = b * p.L + l;
  const flags = p.committed.map((c) => c[at]!);
  const i = commitIndex(p, b, l);
  assert.deepEqual(
    flags,
    flags.map((_, k) => (k >= i ? 1 : 0)),
    `row ${b} site ${l} commits once`,
  );
  return i;
}

test('a reverse trajectory of fig:eta-commit commits exactly once and stays on the anchor', () => {
  for (const eta of [0.5, 1]) {
    const { paths: p } = etaCommitPanel(eta, 3);
    assert.equal(p.t[0], 1);
    assert.equal(p.t[p.t.length - 1], 0);
    assert.ok(p.t.every((t, i) => i === 0 || t < p.t[i - 1]!));
    assert.deepEqual(p.tokens, new Array(ETA_COMMIT.trajectories).fill(0));
    for (let b = 0; b < p.B; b++) {
      const i = commitsOnce(p, b, 0);
      const y = coordinate(p, b, 0);
      y.forEach((yk, k) => {
        if (k >= i) assert.equal(yk, ETA_COMMIT.anchor, `on the anchor after its commit (${k})`);
        else assert.notEqual(yk, ETA_COMMIT.anchor, `off the anchor before its commit (${k})`);
      });
    }
  }
});

test("fig:diffusion_comparison: each preset's own path, and every panel generates x*", () => {
  const { anchors, tokens } = DIFFUSION_COMPARISON;
  const last = DIFFUSION_COMPARISON.nfe;
  for (const name of ['masked', 'continuous', 'sjd']) {
    const p = comparisonPaths(name, 5);
    assert.deepEqual(p.tokens, tokens, name);
    tokens.forEach((a, l) => {
      const i = commitsOnce(p, 0, l);
      const y = coordinate(p, 0, l);
      for (let k = i; k <= last; k++) assert.equal(y[k], anchors[a], `${name} site ${l}`);
      // masked: at the mask point until the jump; continuous: no atom, so the last step's
      // projection is its only commit; sjd: off the anchors until its commit
      if (name === 'masked') for (let k = 0; k < i; k++) assert.equal(y[k], 0);
      if (name === 'continuous') assert.equal(i, last, `continuous site ${l} commits at t = 0`);
      if (name !== 'masked')
        for (let k = 0; k < i; k++) assert.ok(!anchors.includes(y[k]!), `${name} site ${l}`);
    });
  }
});

test('the same seed draws the same figure, another seed another', async () => {
  const spec = async (seed: number) => JSON.stringify(await diffusionComparisonFigure({ seed }));
  assert.equal(await spec(1), await spec(1));
  assert.notEqual(await spec(1), await spec(2));
  assert.deepEqual(etaCommitPanel(0.5, 7).paths.y, etaCommitPanel(0.5, 7).paths.y);
});

test('reverse paths need a grid sampler of one pass a step; a point mass, tokens in range', () => {
  const proc = makeProcess('sjd', { length: 1 });
  for (const sampler of ['adaptive', 'sjd-refresh'] as const)
    assert.throws(
      () =>
        torch.tidy(() =>
          reversePaths({
            process: proc,
            classifier: pointMassClassifier([0], 1),
            anchors: torch.tensor([1], [1, 1], 'float64'),
            ...{ batch: 1, length: 1, sampler, nfe: 4, grid: 'uniform', seed: 0 },
          }),
        ),
      /a grid sampler of one classifier pass a step/,
    );
  assert.throws(() => pointMassClassifier([0, 4], 4), /tokens must lie in 0\.\.3, got 4/);
});

/** The text of every <text> element of an SVG. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

test('`sjd figure` writes an SVG that parses as XML with its panel titles, seeded', async () => {
  const dir = tempDir('sjd-figure-');
  const cli = cliIn(dir);
  const cases: [string, string[]][] = [
    ['eta-commit', ['(a) η = 0.25', '(b) η = 0.50', '(c) η = 0.75', '(d) η = 1.00']],
    ['diffusion-comparison', ['(a) masked diffusion', '(b) continuous diffusion', '(c) SJD']],
  ];
  for (const [name, titles] of cases) {
    const out = join(dir, `${name}.svg`);
    assert.match(cli.ok('figure', name, '--out', out, '--seed', '3'), /^wrote .*\(seed 3\)/);
    const svg = readFileSync(out, 'utf8');
    const meta = await sharp(Buffer.from(svg)).metadata(); // librsvg: a strict XML parse
    assert.equal(meta.format, 'svg');
    assert.ok(meta.width! > 600 && meta.height! > 200, `${meta.width} x ${meta.height}`);
    for (const t of titles) assert.ok(texts(svg).includes(t), `${name}: '${t}'`);
  }
  // the same seed again, with --force: the same bytes
  const out = join(dir, 'diffusion-comparison.svg');
  const before = readFileSync(out);
  cli.ok('figure', 'diffusion-comparison', '--out', out, '--seed', '3', '--force');
  assert.deepEqual(readFileSync(out), before);
});

test('`sjd figure` refuses an existing file without --force and bad input, in one line', () => {
  const dir = tempDir('sjd-figure-bad-');
  const cli = cliIn(dir);
  const mine = join(dir, 'mine.svg');
  cli.ok('figure', 'diffusion-comparison', '--out', mine);
  const kept = readFileSync(mine);
  const refused: [string[], RegExp][] = [
    [
      ['figure', 'diffusion-comparison', '--out', mine],
      /exists; choose another --out or pass --force/,
    ],
    [['figure', 'eta-commit', '--out', join(dir, 'a.svg'), '--seed', '-1'], /--seed/],
    [['figure', 'eta-commit', '--out', join(dir, 'b.svg'), '--bogus'], /unknown option '--bogus'/],
    [['figure', 'eta-commit', '--out', join(dir, 'c.png')], /name a \.svg file/],
    [['figure', 'eta-commit'], /required option '--out <file>'/],
    [['figure', 'nope', '--out', join(dir, 'd.svg')], /unknown command 'nope'/],
  ];
  for (const [args, why] of refused) {
    const r = cli.run(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(lines[0]!, /^sjd: /);
    assert.match(lines[0]!, why);
  }
  assert.deepEqual(readFileSync(mine), kept);
  for (const f of ['a.svg', 'b.svg', 'c.png', 'd.svg']) assert.ok(!existsSync(join(dir, f)), f);
});
