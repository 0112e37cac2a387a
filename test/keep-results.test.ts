// bench/keep-results.sh (issue #31: comparisons that span machines): a run of a comparison is kept
// (its config, manifest, metrics, score caches and learned hazard weights, never its checkpoint)
// only when something of it is scored; a frontier's partial trace neither counts nor travels,
// since its points belong to weights that are not kept.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tmp.js';

// the script in the repository (tests run from dist/test)
const script = fileURLToPath(new URL('../../bench/keep-results.sh', import.meta.url));

test('keep-results keeps the scored runs without their weights, and no partial trace', () => {
  const dir = tempDir('sjd-keep-');
  const runs = join(dir, 'runs');
  const files: Record<string, string[]> = {
    'masked-seed0': ['config.json', 'manifest.json', 'metrics.csv', 'frontier-mdlm.json'],
    'hybrid-seed0': ['config.json', 'scores.json', 'hazard-weights.json', 'other.txt'],
    'sjd-seed0': ['config.json', 'frontier-ancestral.partial.json'], // stopped mid-trace
    'sjd-seed1': ['config.json', 'metrics.csv'], // training
  };
  for (const [run, names] of Object.entries(files)) {
    mkdirSync(join(runs, run, 'checkpoint'), { recursive: true });
    writeFileSync(join(runs, run, 'checkpoint', 'state.json'), '{}');
    for (const f of names) writeFileSync(join(runs, run, f), '{}');
  }
  const keep = join(dir, 'keep');
  const r = spawnSync('bash', [script, runs, keep], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(keep).sort(), ['hybrid-seed0', 'masked-seed0']);
  assert.deepEqual(
    readdirSync(join(keep, 'masked-seed0')).sort(),
    [...files['masked-seed0']!].sort(),
  );
  assert.deepEqual(readdirSync(join(keep, 'hybrid-seed0')).sort(), [
    'config.json',
    'hazard-weights.json',
    'scores.json',
  ]);
  const usage = spawnSync('bash', [script, join(dir, 'none'), keep], {
    encoding: 'utf8',
  });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /^usage: bench\/keep-results\.sh RUNS KEEP/);
});
