// Results cached beside a run (src/util/cache.ts): reused only under an equal key,
// recomputed and rewritten under another, and a damaged file counts as no cache.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cached, readCache } from '../src/util/cache.js';
import { tempDir } from './tmp.js';

test('a cached result is reused under an equal key and recomputed under another', () => {
  const path = join(tempDir(), 'final-eval.json');
  let calls = 0;
  const compute = () => {
    calls++;
    return { solveRate: 0.5 + calls };
  };
  const key = { puzzles: 'abc', nfe: 32, step: 750 };
  assert.deepEqual(cached(path, key, compute), { solveRate: 1.5 });
  // an equal key built in another order: the file's value, no computation
  assert.deepEqual(cached(path, { step: 750, nfe: 32, puzzles: 'abc' }, compute), {
    solveRate: 1.5,
  });
  assert.equal(calls, 1);
  // another step: computed again, and the file now holds the new key
  assert.deepEqual(cached(path, { ...key, step: 800 }, compute), { solveRate: 2.5 });
  assert.equal(calls, 2);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).key, { ...key, step: 800 });
  assert.equal(readCache(path, key), undefined);
});

test('a missing or damaged cache file is no cache', () => {
  const dir = tempDir();
  assert.equal(readCache(join(dir, 'none.json'), {}), undefined);
  const path = join(dir, 'half.json');
  writeFileSync(path, '{"key": {}, "val');
  assert.equal(readCache(path, {}), undefined);
  assert.deepEqual(
    cached(path, {}, () => 7),
    7,
  );
  assert.equal(readCache(path, {}), 7);
});
