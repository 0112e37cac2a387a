// Hazards learned end to end and the ELBO objective in runs (app:e2e-hazard, tab:e2e-text8): `--hazard-weights learned-bounded | learned-uniform-ce` puts w(a) in the network
// (drawing nothing: its other weights start as the run without it), trains it by the ELBO, keeps
// it within its bounds, resumes bit for bit, and the saved model samples with it (deployed) or
// with w = 1 (`--uniform-hazard`); `--objective elbo` trains a fixed-hazard classifier by the
// bound; what these do not take is refused in one line. `sjd compare text --hazards` runs the
// tables of app:e2e-hazard end to end (tiny, resumable), with the paper's numbers beside ours.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HAZARD_ARMS, parseArms, rankCorrelation } from '../src/lab/text/index.js';
import { withHazardWeights, withObjective } from '../src/process/index.js';
import { loadTextModel, textConfig } from '../src/tasks/text/index.js';
import { textSpec } from '../src/tasks/text/spec.js';
import * as torch from '../src/torch/index.js';
import { parseConfig, train } from '../src/train/index.js';
import { objectiveOf } from '../src/train/objective.js';
import { sjd } from './serve-fixture.js';
import { tempDir } from './tmp.js';

/** A tiny hybrid text run's config and task from `sjd train text`'s flags. */
const prepare = (flags: Record<string, unknown>, out = 'unused') =>
  textSpec.train.prepare(
    { out, size: 'tiny', steps: 12, process: 'hybrid', evalSamples: 2, evalNfe: 4, ...flags },
    undefined,
  );

test('a learned-hazard network: w in its bounds, no draw from the generator, the rest as the plain run', () => {
  const plain = prepare({});
  for (const [spec, bounds] of [
    ['learned-bounded', [0.5, 2]],
    ['learned-uniform-ce', [0.05, 20]],
  ] as const) {
    const run = prepare({ hazardWeights: spec });
    assert.equal(run.config.process.objective, 'elbo');
    assert.equal(run.config.process.anchorWeights, undefined);
    assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(run.config)), 'x'), run.config);
    const a = objectiveOf(run.task, run.config).build(new torch.TorchGenerator(3));
    const b = objectiveOf(plain.task, plain.config).build(new torch.TorchGenerator(3));
    const sa = a.stateDict();
    const sb = b.stateDict();
    assert.deepEqual(Object.keys(sa).sort(), [...Object.keys(sb), 'hazard.rho'].sort());
    for (const k of Object.keys(sb)) assert.ok(sa[k]!.equal(sb[k]!), k);
    // w = 1 at the start; far rho stays in the bounds
    const h = (a as { hazard: { weights(): torch.Tensor } }).hazard;
    assert.deepEqual(h.weights().toArray(), new Array(27).fill(1));
    torch.noGrad(() =>
      sa['hazard.rho']!.copy_(torch.tensor([-50, 50, ...new Array(25).fill(0)], [27])),
    );
    const w = h.weights().toArray() as number[];
    assert.ok(Math.abs(w[0]! - bounds[0]) < 1e-12 && Math.abs(w[1]! - bounds[1]) < 1e-12, `${w}`);
  }
});

test('learned-bounded trains w through the ELBO, resumes bit for bit, and samples deployed or with w = 1', async () => {
  const dir = tempDir('sjd-learned-');
  const run = prepare({ hazardWeights: 'learned-bounded', lr: 0.05 });
  const whole = join(dir, 'whole');
  const split = join(dir, 'split');
  const a = await train(whole, run.config, run.task, false);
  await train(split, run.config, run.task, false, { stopAfter: 5 });
  const b = await train(split, run.config, run.task, true);
  assert.deepEqual(b.losses, a.losses.slice(5));
  const m = loadTextModel(whole);
  const w = m.model.hazard!.weights().toArray() as number[];
  const spread = Math.max(...w) / Math.min(...w);
  assert.ok(spread > 1.01 && spread <= 4, `w moved within [0.5, 2]: spread ${spread}`);
  assert.deepEqual(m.process.config.anchorWeights, w); // deployed
  const u = loadTextModel(whole, { uniformHazard: true });
  assert.equal(u.process.config.anchorWeights, undefined);
  // the plain-CE and fixed-hazard ELBO runs differ in their losses from the first step
  const ce = await train(join(dir, 'ce'), prepare({}).config, run.task, false);
  const elbo = prepare({ objective: 'elbo' });
  assert.equal(elbo.config.process.objective, 'elbo');
  assert.equal(elbo.config.process.hazardWeights, undefined);
  const e = await train(join(dir, 'elbo'), elbo.config, run.task, false);
  assert.notEqual(e.losses[0], ce.losses[0]);
  assert.ok(e.losses.every(Number.isFinite));
});

test('sampling: a model with strongly non-uniform weights samples otherwise with --uniform-hazard', () => {
  const dir = tempDir('sjd-uniform-hazard-');
  const out = join(dir, 'anti');
  const flags = ['--size', 'tiny', '--steps', '6', '--process', 'hybrid', '--out', out];
  const t = sjd('train', 'text', ...flags, '--hazard-weights', 'anti-spread:16');
  assert.equal(t.status, 0, t.stderr);
  const sample = (...extra: string[]) => {
    const r = sjd(
      'sample',
      'text',
      '--model',
      out,
      '-n',
      '4',
      '--nfe',
      '8',
      '--seed',
      '2',
      ...extra,
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const deployed = sample();
  assert.equal(sample(), deployed);
  assert.notEqual(deployed, sample('--uniform-hazard'));
});

test('what the ELBO and learned weights do not take is refused in one line', () => {
  const counts = new Array(27).fill(10);
  const choice = (flags: Record<string, unknown>) =>
    textConfig({ process: 'hybrid', ...flags }).process;
  const learned = (flags: Record<string, unknown>, spec: string) =>
    withHazardWeights(choice(flags), spec, counts);
  assert.throws(
    () => learned({ process: 'masked' }, 'learned-bounded'),
    /masked process's sampler has one hazard/,
  );
  assert.throws(
    () => learned({ process: 'sjd', eta: 0.5 }, 'learned-uniform-ce'),
    /holds at eta = 1/,
  );
  assert.throws(
    () => withObjective(choice({ process: 'masked' }), 'elbo'),
    /--objective elbo: .* not masked/,
  );
  assert.throws(
    () => withObjective(choice({ process: 'sjd', eta: 0.5 }), 'elbo'),
    /holds at eta = 1, not 0.5/,
  );
  const p = learned({}, 'learned-bounded');
  assert.throws(
    () => withObjective(p, 'ce'),
    /learned hazard weights \(learned-bounded\) train by the ELBO/,
  );
  const c = textConfig({ process: 'hybrid' });
  assert.throws(
    () => parseConfig({ ...c, process: { ...p, objective: 'ce' } }, 'c.json'),
    /c.json: process.hazardWeights: learned hazard weights train by the ELBO/,
  );
  assert.throws(
    () => parseConfig({ ...c, process: { ...p, eta: 0.5 } }, 'c.json'),
    /process.objective: the ELBO objective .* at eta = 1/,
  );
  assert.throws(
    () => parseConfig({ ...c, process: { ...p, anchorWeights: counts } }, 'c.json'),
    /learned hazard weights live in the network/,
  );
});

test('rank correlation: monotone 1, reversed -1, ties at their mean rank', () => {
  assert.equal(rankCorrelation([1, 2, 3, 4], [10, 20, 30, 45]), 1);
  assert.equal(rankCorrelation([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  // ranks [0, 1.5, 1.5, 3] against [0, 1, 2, 3]: covariance 4.5 / sqrt(4.5 * 5)
  assert.ok(
    Math.abs(rankCorrelation([1, 2, 2, 3], [1, 2, 3, 4]) - 4.5 / Math.sqrt(4.5 * 5)) < 1e-12,
  );
  assert.deepEqual(parseArms('uniform,elbo'), ['uniform', 'elbo']);
  assert.equal(parseArms('all').length, Object.keys(HAZARD_ARMS).length);
  assert.throws(() => parseArms('uniform,bogus'), /unknown hazard arm 'bogus'/);
});

test('sjd compare text --hazards: the tables with the paper beside, the w = 1 read-out, resumable', () => {
  const dir = tempDir('sjd-hazards-');
  const doc = join(dir, 'hazards.md');
  const args = ['compare', 'text', '--size', 'tiny', '--steps', '2', '-n', '1', '--seeds', '0'];
  const more = [
    '--hazards',
    'uniform,learned-bounded',
    '--samplers',
    'ancestral',
    '--out',
    dir,
    '--doc',
    doc,
  ];
  const r = sjd(...args, ...more);
  assert.equal(r.status, 0, r.stderr);
  const md = readFileSync(doc, 'utf8');
  assert.match(md, /\| uniform \(w = 1\), plain CE \| 1x \| 0\.\d{3} \| 1 \| 0\.263 \+- 0\.000/);
  assert.match(
    md,
    /\| learned, bounded \(CE-driven\) \| \d\.\d\dx \(rank corr\. -?\d\.\d\d\) \| 0\.\d{3} \| 0\.\d{3} \| 1 \| 4x, frequency \(\+0\.99\) \| 0\.066 \| 0\.10 \|/,
  );
  assert.ok(existsSync(join(dir, 'hybrid-learned-bounded-seed0', 'frontier-ancestral-w1.json')));
  // the reproduce line is the command as given: --models (not read beside --hazards) left out
  assert.ok(
    md.includes(
      `Reproduce: \`npx sjd compare text --out ${dir} --steps 2 --size tiny --seeds 0 --samplers ancestral -n 1 --nfes 32,64,128 --hazards uniform,learned-bounded --doc ${doc}\``,
    ),
    md.split('\n').find((l) => l.startsWith('Reproduce')),
  );
  const again = sjd(...args, ...more);
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stderr + again.stdout, /training /); // the runs and frontiers are cached
  // the runs kept without their checkpoints (scripts/keep-results.sh) resume elsewhere: nothing is
  // trained again and the tables are the same, the learned weights' spread included
  const kept = tempDir('sjd-hazards-kept-');
  for (const run of ['hybrid-seed0', 'hybrid-learned-bounded-seed0']) {
    mkdirSync(join(kept, run));
    for (const f of readdirSync(join(dir, run)))
      if (/^(config|frontier-.*|hazard-weights)\.json$/.test(f))
        copyFileSync(join(dir, run, f), join(kept, run, f));
  }
  assert.ok(existsSync(join(kept, 'hybrid-learned-bounded-seed0', 'hazard-weights.json')));
  const keptDoc = join(kept, 'hazards.md');
  const elsewhere = sjd(...args, ...more.map((a) => (a === dir ? kept : a === doc ? keptDoc : a)));
  assert.equal(elsewhere.status, 0, elsewhere.stderr);
  assert.doesNotMatch(elsewhere.stderr + elsewhere.stdout, /training /);
  assert.equal(readFileSync(keptDoc, 'utf8').replaceAll(kept, dir), md);
});
