// The held-out share of a user's own set (src/tasks/common/hold-out.ts): a count or an exact
// decimal fraction, items held out evenly through the set (one in ten at 0.1: positions 9, 19,
// ...), and a share that holds out none or all refused in one line naming the flag. Through the
// CLI: `sjd train image` with --data alone holds out a tenth (image-sources.test.ts trains so);
// --hold-out beside --eval-data is refused, and held-out images of another size name --eval-data.
// A corpus (sjd data text, data tokens) holds out contiguous valid and test splits at its end,
// each the share --hold-out gives (text8's 90/5/5 by default), recorded in its corpus.json.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CORPUS_HOLD_OUT,
  corpusSplit,
  DEFAULT_HOLD_OUT,
  heldOutItems,
  parseHoldOut,
} from '../src/tasks/common/hold-out.js';
import { saveImageSet } from '../src/tasks/image/index.js';
import { withoutProgress } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const held = (n: number, share: string) => {
  const h = heldOutItems(n, parseHoldOut(share), 'items');
  return Array.from({ length: n }, (_, i) => i).filter(h);
};

test('--hold-out: a count or a decimal fraction, spread evenly through the set', () => {
  assert.equal(DEFAULT_HOLD_OUT, '0.1');
  assert.deepEqual(parseHoldOut('12'), { count: 12, spelled: '12' });
  assert.deepEqual(parseHoldOut('0.25'), { num: 25, den: 100, spelled: '0.25' });
  assert.deepEqual(parseHoldOut('.5'), { num: 5, den: 10, spelled: '.5' });
  for (const bad of ['0', '1.5', '-3', '0.0', 'a tenth', '0.1234567', '1e3', ''])
    assert.throws(
      () => parseHoldOut(bad),
      /expected a count of items .* or a fraction between 0 and 1/,
    );
  // one in ten at 0.1, whatever the size: the sequences' split before the flag existed
  for (const n of [10, 25, 99, 1000])
    assert.deepEqual(
      held(n, '0.1'),
      Array.from({ length: n }, (_, i) => i).filter((i) => i % 10 === 9),
    );
  assert.deepEqual(held(10, '3'), [3, 6, 9]); // floor((i + 1) 3 / 10) steps at i = 3, 6, 9
  assert.deepEqual(held(8, '0.5'), [1, 3, 5, 7]);
  assert.equal(held(1000, '0.333').length, 333);
  assert.equal(held(7, '6').length, 6);
  // a class-ordered set (first half one class, second the other) is held out from both halves
  const h = held(40, '4');
  assert.ok(h.some((i) => i < 20) && h.some((i) => i >= 20), String(h));
  assert.throws(() => held(5, '0.1'), {
    message: '--hold-out 0.1 holds out none of the 5 items; give a larger fraction or a count',
  });
  assert.throws(() => held(5, '5'), {
    message: '--hold-out 5 holds out all 5 items, leaving none to train on; give fewer',
  });
});

test('sjd train image: --hold-out beside --eval-data is refused; held-out images of another size name --eval-data', () => {
  const dir = tempDir('sjd-hold-out-');
  const set = (n: number, side: number) => ({
    images: new Uint8Array(n * side * side),
    labels: null,
    n,
    channels: 1,
    height: side,
    width: side,
    levels: 256,
  });
  const [a, b] = [join(dir, 'a.safetensors'), join(dir, 'b.safetensors')];
  saveImageSet(a, set(20, 8), 'a');
  saveImageSet(b, set(5, 6), 'b');
  const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
  const cases: [string[], string][] = [
    [
      ['--hold-out', '2', '--eval-data', b],
      'sjd: --hold-out and --eval-data both choose the held-out images; give one',
    ],
    [
      ['--eval-data', b],
      `sjd: --eval-data ${b}: images are 6 x 6 x 1, 256 levels, the training images 8 x 8 x 1, 256 levels; give held-out images of the training images' size, or --hold-out N|FRACTION to hold out part of the training images instead`,
    ],
    [
      ['--hold-out', '0.01'],
      `sjd: --hold-out 0.01 holds out none of the 20 images of ${a}; give a larger fraction or a count`,
    ],
    [
      ['--hold-out', 'most'],
      "sjd: option '--hold-out <n|fraction>' argument 'most' is invalid. expected a count of items",
    ],
  ];
  for (const [args, line] of cases) {
    const out = join(dir, 'run');
    const r = spawnSync(
      process.execPath,
      [bin, 'train', 'image', '--size', 'tiny', '--data', a, ...args, '--out', out],
      {
        encoding: 'utf8',
        env: { ...process.env, SJD_THREADS: '1' },
      },
    );
    assert.notEqual(r.status, 0);
    assert.ok(r.stderr.startsWith(line), `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(!existsSync(out));
  }
});

test("a corpus splits contiguously: text8's 90/5/5 by default, --hold-out's share each for valid and test", () => {
  const split = (n: number, share: string) => corpusSplit(n, share, 'characters');
  assert.equal(CORPUS_HOLD_OUT, '0.05');
  // the default is text8's floor(0.9 n), floor(0.95 n), exactly, for every n
  for (let n = 1000; n < 1400; n++)
    assert.deepEqual(split(n, CORPUS_HOLD_OUT), [Math.floor(n * 0.9), Math.floor(n * 0.95)]);
  assert.deepEqual(split(1000, '0.2'), [600, 800]);
  assert.deepEqual(split(3000, '256'), [2488, 2744]); // a count: that many characters each
  assert.throws(() => split(100, '0.001'), {
    message:
      '--hold-out 0.001 holds out none of the 100 characters; give a larger fraction or a count',
  });
  assert.throws(() => split(100, '50'), {
    message:
      '--hold-out 50 twice (valid and test) leaves none of the 100 characters to train on; give less',
  });
  assert.throws(() => split(100, '0.5'), /leaves none of the 100 characters to train on/);
});

test('sjd data text and data tokens --hold-out: the valid and test splits hold that many, recorded', () => {
  const dir = tempDir('sjd-hold-out-corpus-');
  const src = join(dir, 'notes.txt');
  // 3,000 characters, letters and single spaces, so that normalisation keeps each
  writeFileSync(src, `${'abcdefghi '.repeat(299)}abcdefghij`);
  const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
  const sjd = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const text = sjd('data', 'text', '--from', src, '--hold-out', '400', '--out', join(dir, 'c'));
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^wrote .*: train 2200, valid 400, test 400 characters/);
  const meta = JSON.parse(readFileSync(join(dir, 'c', 'corpus.json'), 'utf8'));
  assert.equal(meta.holdOut, '400');
  assert.equal(readFileSync(join(dir, 'c', 'test.txt'), 'utf8').length, 400);
  const tokens = sjd(
    ...['data', 'tokens', '--from', src, '--tokenizer', 'gpt2', '--hold-out', '0.2'],
    ...['--out', join(dir, 't')],
  );
  assert.equal(tokens.status, 0, tokens.stderr);
  const m = /train (\d+), valid (\d+), test (\d+) tokens/.exec(tokens.stdout);
  assert.ok(m, tokens.stdout);
  const [train, valid, test] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const n = train + valid + test;
  assert.deepEqual([train, valid + train], [Math.floor(n * 0.6), Math.floor(n * 0.8)]);
  assert.equal(JSON.parse(readFileSync(join(dir, 't', 'corpus.json'), 'utf8')).holdOut, '0.2');
  const bad = sjd('data', 'text', '--from', src, '--hold-out', '1500', '--out', join(dir, 'd'));
  assert.equal(bad.status, 1);
  assert.equal(
    withoutProgress(bad.stderr),
    `sjd: --hold-out 1500 twice (valid and test) leaves none of the 3000 characters of ${src} to train on; give less\n`,
  );
  assert.ok(!existsSync(join(dir, 'd')));
});
