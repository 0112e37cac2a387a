// scripts/keep-results.sh (comparisons that span machines): a run of a comparison is kept
// (its config, manifest, metrics, score caches and learned hazard weights, not its checkpoint)
// only when something of it is scored; a frontier's partial trace neither counts nor travels
// without the weights it belongs to. With --with-checkpoints (a session that
// stops mid-queue) every run with a checkpoint travels with it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tmp.js';

// the script in the repository (tests run from dist/test)
const script = fileURLToPath(new URL('../../scripts/keep-results.sh', import.meta.url));
const restore = fileURLToPath(new URL('../../scripts/restore-results.sh', import.meta.url));

test('keep-results keeps the scored runs without their weights, and no partial trace', () => {
  const dir = tempDir('sjd-keep-');
  const runs = join(dir, 'runs');
  const files: Record<string, string[]> = {
    'masked-seed0': ['config.json', 'manifest.json', 'metrics.csv', 'frontier-mdlm.json'],
    'hybrid-seed0': ['config.json', 'scores.json', 'hazard-weights.json', 'other.txt'],
    'sjd-seed0': ['config.json', 'frontier-ancestral.partial.json'], // stopped mid-trace
    'sjd-seed1': ['config.json', 'metrics.csv'], // training
    'ar-ltr-seed0': ['config.json', 'metrics.csv', 'final-eval.json'], // a Sudoku run's scores
  };
  for (const [run, names] of Object.entries(files)) {
    mkdirSync(join(runs, run, 'checkpoint'), { recursive: true });
    writeFileSync(join(runs, run, 'checkpoint', 'state.json'), '{}');
    for (const f of names) writeFileSync(join(runs, run, f), '{}');
  }
  const keep = join(dir, 'keep');
  const r = spawnSync('bash', [script, runs, keep], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(keep).sort(), ['ar-ltr-seed0', 'hybrid-seed0', 'masked-seed0']);
  assert.ok(existsSync(join(keep, 'ar-ltr-seed0', 'final-eval.json')));
  assert.deepEqual(
    readdirSync(join(keep, 'masked-seed0')).sort(),
    [...files['masked-seed0']!].sort(),
  );
  assert.deepEqual(readdirSync(join(keep, 'hybrid-seed0')).sort(), [
    'config.json',
    'hazard-weights.json',
    'scores.json',
  ]);
  // a session that stops mid-queue keeps every run with its checkpoint, training or scored
  writeFileSync(join(runs, 'sjd-seed1', 'checkpoint', 'model.safetensors'), 'weights');
  const mid = spawnSync('bash', [script, runs, keep, '--with-checkpoints'], { encoding: 'utf8' });
  assert.equal(mid.status, 0, mid.stderr);
  assert.equal(
    readFileSync(join(keep, 'sjd-seed1', 'checkpoint', 'model.safetensors'), 'utf8'),
    'weights',
  );
  assert.ok(existsSync(join(keep, 'masked-seed0', 'checkpoint', 'state.json')));
  // with the weights, a stopped scoring's partial files travel too
  assert.deepEqual(readdirSync(join(keep, 'sjd-seed0')).sort(), [
    'checkpoint',
    'config.json',
    'frontier-ancestral.partial.json',
  ]);
  // it comes back on a fresh machine, and the run resumes from it
  const fresh = join(dir, 'fresh');
  const back = spawnSync('bash', [restore, keep, fresh], { encoding: 'utf8' });
  assert.equal(back.status, 0, back.stderr);
  assert.equal(
    readFileSync(join(fresh, 'sjd-seed1', 'checkpoint', 'model.safetensors'), 'utf8'),
    'weights',
  );
  assert.ok(existsSync(join(fresh, 'sjd-seed0', 'frontier-ancestral.partial.json')));
  // a partial file the run has since finished leaves KEEP at the next keep
  rmSync(join(runs, 'sjd-seed0', 'frontier-ancestral.partial.json'));
  writeFileSync(join(runs, 'hybrid-seed0', 'samples-nfe64.partial.json'), '{}');
  spawnSync('bash', [script, runs, keep, '--with-checkpoints'], { encoding: 'utf8' });
  assert.deepEqual(readdirSync(join(keep, 'sjd-seed0')).sort(), ['checkpoint', 'config.json']);
  assert.ok(existsSync(join(keep, 'hybrid-seed0', 'samples-nfe64.partial.json')));
  // kept again without the flag, a scored run's checkpoint leaves KEEP, and partial files with it
  const after = spawnSync('bash', [script, runs, keep], { encoding: 'utf8' });
  assert.equal(after.status, 0, after.stderr);
  assert.ok(!existsSync(join(keep, 'masked-seed0', 'checkpoint')));
  assert.ok(!existsSync(join(keep, 'hybrid-seed0', 'samples-nfe64.partial.json')));
  for (const args of [
    [join(dir, 'none'), keep],
    [runs, keep, '--checkpoints'],
  ]) {
    const usage = spawnSync('bash', [script, ...args], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /^usage: scripts\/keep-results\.sh RUNS KEEP/);
  }
});

// the other way (scripts/restore-results.sh), and what a run trained again set aside: a cache the
// comparison renamed FILE.stale (the run did not repeat the kept one) scored other weights, so
// it leaves KEEP at the next keep and is not copied back into RUNS beside the new weights

test('results a run set aside as *.stale are dropped from KEEP and never restored beside the new weights', () => {
  const dir = tempDir('sjd-keep-stale-');
  const runs = join(dir, 'runs');
  const keep = join(dir, 'keep');
  const put = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  // kept from the first weights: two caches of each run
  for (const run of ['a-seed0', 'b-seed0'])
    for (const f of ['config.json', 'metrics.csv', 'scores.json', 'scores-top-p0.9.json'])
      put(join(keep, run, f), `old ${f}`);
  // a fresh machine: everything comes back
  let r = spawnSync('bash', [restore, keep, runs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(runs, 'a-seed0', 'scores.json'), 'utf8'), 'old scores.json');
  // a-seed0 trained again and differed: both caches set aside, one scored again since
  for (const f of ['scores.json', 'scores-top-p0.9.json'])
    renameSync(join(runs, 'a-seed0', f), join(runs, 'a-seed0', `${f}.stale`));
  put(join(runs, 'a-seed0', 'scores-top-p0.9.json'), 'new scores-top-p0.9.json');
  put(join(runs, 'a-seed0', 'metrics.csv'), 'new metrics.csv');
  // restoring again (the queue restarted) brings back neither the set-aside cache nor overwrites
  r = spawnSync('bash', [restore, keep, runs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!existsSync(join(runs, 'a-seed0', 'scores.json')));
  assert.equal(
    readFileSync(join(runs, 'a-seed0', 'scores-top-p0.9.json'), 'utf8'),
    'new scores-top-p0.9.json',
  );
  assert.equal(readFileSync(join(runs, 'a-seed0', 'metrics.csv'), 'utf8'), 'new metrics.csv');
  // keeping: the stale cache leaves KEEP, the rescored one and the new metrics replace the old
  r = spawnSync('bash', [script, runs, keep], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(join(keep, 'a-seed0')).sort(), [
    'config.json',
    'metrics.csv',
    'scores-top-p0.9.json',
  ]);
  assert.equal(readFileSync(join(keep, 'a-seed0', 'metrics.csv'), 'utf8'), 'new metrics.csv');
  assert.equal(readdirSync(join(keep, 'b-seed0')).length, 4);
  // b-seed0 is being trained again (its kept metrics held aside, a partial log, the old caches
  // beside it until the run is settled): KEEP's record of it is left as it was
  put(join(runs, 'b-seed0', 'kept-metrics.csv'), 'old metrics.csv');
  put(join(runs, 'b-seed0', 'metrics.csv'), 'step 500 of 2400');
  put(join(runs, 'b-seed0', 'manifest.json'), 'retraining');
  r = spawnSync('bash', [script, runs, keep], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(keep, 'b-seed0', 'metrics.csv'), 'utf8'), 'old metrics.csv');
  assert.deepEqual(readdirSync(join(keep, 'b-seed0')).sort(), [
    'config.json',
    'metrics.csv',
    'scores-top-p0.9.json',
    'scores.json',
  ]);
  const usage = spawnSync('bash', [restore, join(dir, 'none'), runs], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /^usage: scripts\/restore-results\.sh KEEP RUNS/);
});
