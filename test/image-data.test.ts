// The image data layer (the paper's image experiments, app:cifar10-imagenet): idx
// parsing on bytes built here (exact round trip, every error in one line), gzip through fflate,
// grey-level reduction and expansion on all 256 values, Fashion-MNIST itself when Debian's
// dataset-fashion-mnist is installed, the seeded synthetic colour set, image-set files, and
// `sjd data images` end to end (on idx files made here, and on Fashion-MNIST when present).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'fflate';
import {
  checkLevels,
  expandLevels,
  FASHION_MNIST_DIR,
  type ImageSet,
  loadFashionMnist,
  loadImageSet,
  parseIdx,
  readIdx,
  reduceLevels,
  SYNTHETIC_KINDS,
  saveImageSet,
  syntheticImages,
} from '../src/tasks/image/index.js';
import { zeros } from '../src/torch/factories.js';
import { saveSafetensors } from '../src/torch/safetensors.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

/** The bytes of an idx file: magic, type, rank, big-endian sizes, data. */
function idxBytes(type: number, dims: number[], data: Uint8Array): Uint8Array {
  const head = new DataView(new ArrayBuffer(4 + 4 * dims.length));
  head.setUint8(2, type);
  head.setUint8(3, dims.length);
  for (const [k, d] of dims.entries()) head.setUint32(4 + 4 * k, d, false);
  return new Uint8Array([...new Uint8Array(head.buffer), ...data]);
}

/** Asserts that fn throws one line matching `message`. */
function throwsOneLine(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: Error) => {
    assert.match(e.message, message);
    assert.ok(!e.message.includes('\n'), e.message);
    return true;
  });
}

const counting = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256);

/** A folder of gzipped idx files like Fashion-MNIST's: `n` images of h x w, labels i % 10. */
function fakeFashion(dir: string, n: number, h: number, w: number, labels = n): Uint8Array {
  mkdirSync(dir, { recursive: true });
  const pixels = counting(n * h * w); // [n, h, w]
  for (const prefix of ['train', 't10k']) {
    const images = idxBytes(0x08, [n, h, w], pixels);
    const ids = Uint8Array.from({ length: labels }, (_, i) => i % 10);
    writeFileSync(join(dir, `${prefix}-images-idx3-ubyte.gz`), gzipSync(images));
    writeFileSync(join(dir, `${prefix}-labels-idx1-ubyte`), idxBytes(0x08, [labels], ids));
  }
  return pixels;
}

test('parseIdx reads unsigned and signed byte arrays exactly', () => {
  const data = counting(3 * 2 * 4);
  const u = parseIdx(idxBytes(0x08, [3, 2, 4], data), 'u.idx');
  assert.deepEqual(u, { type: 'ubyte', dims: [3, 2, 4], data });
  const s = parseIdx(idxBytes(0x09, [24], data), 's.idx');
  assert.equal(s.type, 'byte');
  assert.deepEqual(s.dims, [24]);
  assert.deepEqual(s.data, data);
  const big = parseIdx(idxBytes(0x08, [70000, 0], new Uint8Array(0)), 'big.idx');
  assert.deepEqual(big.dims, [70000, 0]); // sizes are big-endian uint32
});

test('parseIdx refuses bad files in one line naming the file', () => {
  const ok = idxBytes(0x08, [2, 3], counting(6));
  const cases: [Uint8Array, RegExp][] = [
    [ok.subarray(0, 3), /^f\.idx: truncated idx header \(3 bytes\)$/],
    [Uint8Array.of(1, 0, 8, 1, 0, 0, 0, 0), /^f\.idx: not an idx file \(bad magic 0x01 0x00/],
    [Uint8Array.from(Buffer.from('PK\x03\x04hello')), /^f\.idx: not an idx file/],
    [idxBytes(0x0d, [1], new Uint8Array(4)), /^f\.idx: unsupported idx type 0x0d \(float32\)/],
    [idxBytes(0x42, [1], new Uint8Array(1)), /^f\.idx: unsupported idx type 0x42; only 0x08/],
    [idxBytes(0x08, [], new Uint8Array(0)), /^f\.idx: idx array with no dimensions$/],
    [
      ok.subarray(0, 9),
      /^f\.idx: truncated idx header: 2 dimensions need 12 bytes, the file has 9$/,
    ],
    [ok.subarray(0, 15), /^f\.idx: truncated data: a 2x3 array needs 6 bytes, the file has 3$/],
    [Uint8Array.from([...ok, 7, 7]), /^f\.idx: 2 trailing bytes after the 2x3 array$/],
  ];
  for (const [bytes, message] of cases) throwsOneLine(() => parseIdx(bytes, 'f.idx'), message);
});

test('readIdx reads gzipped and raw files alike, and names a bad or missing file', () => {
  const dir = tempDir('sjd-idx-');
  const bytes = idxBytes(0x08, [5, 7], counting(35));
  writeFileSync(join(dir, 'a.idx'), bytes);
  writeFileSync(join(dir, 'a.idx.gz'), gzipSync(bytes));
  writeFileSync(join(dir, 'gz-named-raw.gz'), bytes);
  const raw = readIdx(join(dir, 'a.idx'));
  assert.deepEqual(readIdx(join(dir, 'a.idx.gz')), raw);
  assert.deepEqual(readIdx(join(dir, 'gz-named-raw.gz')), raw);
  assert.deepEqual(raw.data, counting(35));
  const broken = gzipSync(bytes).slice(0, 20);
  writeFileSync(join(dir, 'broken.gz'), broken);
  throwsOneLine(() => readIdx(join(dir, 'broken.gz')), /broken\.gz: bad gzip data/);
  writeFileSync(join(dir, 'short.gz'), gzipSync(bytes.subarray(0, 30)));
  throwsOneLine(() => readIdx(join(dir, 'short.gz')), /short\.gz: truncated data: a 5x7 array/);
  throwsOneLine(() => readIdx(join(dir, 'nowhere.gz')), /nowhere\.gz: no such file$/);
});

test('reduceLevels is floor(v * L / 256) and expandLevels round(k * 255 / (L - 1)), on all values', () => {
  const all = Uint8Array.from({ length: 256 }, (_, v) => v);
  assert.deepEqual(reduceLevels(all, 256), all);
  assert.deepEqual(expandLevels(all, 256), all);
  const r16 = reduceLevels(all, 16);
  for (let v = 0; v < 256; v++) assert.equal(r16[v], Math.floor((v * 16) / 256));
  const levels16 = Uint8Array.from({ length: 16 }, (_, k) => k);
  assert.deepEqual(
    expandLevels(levels16, 16),
    Uint8Array.from(levels16, (k) => 17 * k),
  );
  assert.deepEqual(
    expandLevels(r16, 16),
    Uint8Array.from(all, (v) => 17 * (v >> 4)),
  );
  for (let L = 2; L <= 256; L *= 2) {
    const ks = Uint8Array.from({ length: L }, (_, k) => k);
    const bytes = expandLevels(ks, L);
    assert.equal(bytes[0], 0);
    assert.equal(bytes[L - 1], 255);
    assert.deepEqual(reduceLevels(bytes, L), ks, `levels ${L}: each expanded value in its bin`);
  }
  for (const bad of [0, 1, 3, 12, 255, 257, 512, 2.5, Number.NaN])
    throwsOneLine(() => checkLevels(bad), /^levels must be a power of two from 2 to 256, got /);
  throwsOneLine(() => reduceLevels(all, 100), /got 100$/);
  throwsOneLine(() => expandLevels(Uint8Array.of(0, 16), 16), /^level 16 is out of range for 16/);
});

const fashion = existsSync(FASHION_MNIST_DIR)
  ? false
  : `${FASHION_MNIST_DIR} absent (install Debian's dataset-fashion-mnist)`;

test('Fashion-MNIST: 60,000 train and 10,000 test 28x28 images, 10 balanced classes', {
  skip: fashion,
}, () => {
  for (const [split, n] of [
    ['train', 60_000],
    ['test', 10_000],
  ] as const) {
    const set = loadFashionMnist(split);
    const { images, labels, ...shape } = set;
    assert.deepEqual(shape, { n, channels: 1, height: 28, width: 28, levels: 256 });
    assert.equal(images.length, n * 28 * 28);
    const counts = new Array(10).fill(0);
    for (const l of labels!) counts[l]++;
    assert.deepEqual(counts, new Array(10).fill(n / 10), `${split} labels 0..9, n/10 each`);
    if (split === 'test') {
      const small = loadFashionMnist('test', undefined, { levels: 16, limit: 100 });
      assert.equal(small.n, 100);
      assert.deepEqual(small.images, reduceLevels(images.subarray(0, 100 * 784), 16));
      assert.deepEqual(small.labels, labels!.subarray(0, 100));
    }
  }
});

test('loadFashionMnist reads idx folders and refuses missing or inconsistent ones in one line', () => {
  const dir = tempDir('sjd-fashion-');
  const pixels = fakeFashion(join(dir, 'ok'), 6, 3, 2);
  const set = loadFashionMnist('test', join(dir, 'ok'), { levels: 4, limit: 4 });
  assert.deepEqual(set.images, reduceLevels(pixels.subarray(0, 4 * 6), 4));
  assert.deepEqual(set.labels, Uint8Array.of(0, 1, 2, 3));
  assert.equal(loadFashionMnist('train', join(dir, 'ok'), { limit: 99 }).n, 6);
  throwsOneLine(
    () => loadFashionMnist('train', join(dir, 'nowhere')),
    /nowhere; install Debian's dataset-fashion-mnist/,
  );
  fakeFashion(join(dir, 'mismatch'), 6, 3, 2, 5);
  throwsOneLine(
    () => loadFashionMnist('train', join(dir, 'mismatch')),
    /mismatch: 6 train images but 5 labels$/,
  );
  const badLabels = join(dir, 'labels');
  fakeFashion(badLabels, 6, 3, 2);
  const ids = Uint8Array.of(0, 1, 2, 12, 4, 5); // 12: no such class
  writeFileSync(join(badLabels, 'train-labels-idx1-ubyte'), idxBytes(0x08, [6], ids));
  throwsOneLine(
    () => loadFashionMnist('train', badLabels),
    /labels: train label 12 at 3 is out of range for 10 classes$/,
  );
  mkdirSync(join(dir, 'empty'));
  throwsOneLine(
    () => loadFashionMnist('test', join(dir, 'empty')),
    /empty has no t10k-images-idx3-ubyte\(\.gz\)$/,
  );
  throwsOneLine(
    () => loadFashionMnist('val' as 'test', join(dir, 'ok')),
    /unknown split 'val'; expected one of train, test/,
  );
});

test('syntheticImages is deterministic by seed, differs across seeds, and has colour', () => {
  const o = { n: 12, channels: 3, height: 8, width: 10, levels: 16 };
  const a = syntheticImages({ ...o, seed: 1 });
  assert.deepEqual(syntheticImages({ ...o, seed: 1 }), a);
  assert.notDeepEqual(syntheticImages({ ...o, seed: 2 }).images, a.images);
  assert.equal(a.images.length, 12 * 3 * 8 * 10);
  assert.ok(a.images.every((v) => v < 16));
  assert.ok(
    a.images.some((v) => v >= 8),
    'bright pixels',
  );
  assert.deepEqual(
    [...a.labels!],
    [...Array(12).keys()].map((i) => i % SYNTHETIC_KINDS.length),
  );
  const plane = 8 * 10;
  const channel = (i: number, c: number) =>
    a.images.subarray((3 * i + c) * plane, (3 * i + c + 1) * plane);
  assert.ok(
    [...Array(12).keys()].some((i) => !channel(i, 0).every((v, k) => v === channel(i, 1)[k])),
    'channels are tinted differently',
  );
  const grey = syntheticImages({ n: 3, channels: 1, height: 5, width: 5 });
  assert.equal(grey.images.length, 75);
  assert.equal(grey.levels, 256);
  throwsOneLine(() => syntheticImages({ n: 0 }), /^n must be a positive integer, got 0$/);
});

test('image-set files round-trip labelled and unlabelled sets and refuse other files', () => {
  const dir = tempDir('sjd-imageset-');
  const set = syntheticImages({ n: 5, channels: 3, height: 4, width: 6, levels: 8, seed: 3 });
  saveImageSet(join(dir, 'a.safetensors'), set, 'synthetic seed 3');
  assert.deepEqual(loadImageSet(join(dir, 'a.safetensors')), {
    ...set,
    source: 'synthetic seed 3',
  });
  const bare: ImageSet = { ...set, labels: null };
  saveImageSet(join(dir, 'b.safetensors'), bare, 'x');
  assert.deepEqual(loadImageSet(join(dir, 'b.safetensors')), { ...bare, source: 'x' });
  throwsOneLine(
    () => saveImageSet(join(dir, 'c.safetensors'), { ...set, levels: 4 }, 'x'),
    /c\.safetensors: value \d+ at \d+ is out of range for 4 levels$/,
  );
  assert.ok(!existsSync(join(dir, 'c.safetensors')));
  saveSafetensors(join(dir, 'other.safetensors'), { images: zeros([2, 2], 'uint8') });
  throwsOneLine(
    () => loadImageSet(join(dir, 'other.safetensors')),
    /other\.safetensors: not an image set written by sjd$/,
  );
  writeFileSync(join(dir, 'junk.safetensors'), 'junk');
  throwsOneLine(() => loadImageSet(join(dir, 'junk.safetensors')), /junk\.safetensors: /);
});

test('sjd data images writes a set, refuses an existing file without --force, and bad flags in one line', () => {
  const dir = tempDir('sjd-data-images-');
  const pixels = fakeFashion(join(dir, 'idx'), 7, 4, 5);
  const out = join(dir, 'set.safetensors');
  const args = ['data', 'images', '--from', join(dir, 'idx'), '--out', out];
  const r = sjd(...args, '--split', 'test', '--levels', '16', '--limit', '6');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wrote .*set\.safetensors: 6 labelled images 1x4x5, 16 levels/);
  const set = loadImageSet(out);
  assert.deepEqual(set.images, reduceLevels(pixels.subarray(0, 6 * 20), 16));
  assert.deepEqual(set.labels, Uint8Array.of(0, 1, 2, 3, 4, 5));
  const before = readFileSync(out);
  const again = sjd(...args);
  assert.equal(again.status, 1);
  assert.match(
    again.stderr,
    /^sjd: .*set\.safetensors exists; choose another --out or pass --force/,
  );
  assert.deepEqual(readFileSync(out), before);
  const forced = sjd(...args, '--force');
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(loadImageSet(out).n, 7);
  for (const [flags, message] of [
    [['--levels', '3'], /--levels.*expected a power of two from 2 to 256/],
    [['--levels', '512'], /--levels.*expected a power of two from 2 to 256/],
    [['--split', 'val'], /--split.*expected one of train, test/],
    [['--limit', '0'], /--limit.*expected an integer in \[1, /],
    [['--limit', 'many'], /--limit.*expected an integer/],
    [['--from', join(dir, 'nowhere')], /--from .*nowhere: no such file or folder/],
  ] as const) {
    const bad = sjd('data', 'images', '--out', join(dir, 'bad.safetensors'), ...flags);
    assert.notEqual(bad.status, 0, flags.join(' '));
    assert.match(bad.stderr, /^sjd: [^\n]*\n$/, flags.join(' '));
    assert.match(bad.stderr, message, flags.join(' '));
    assert.ok(!existsSync(join(dir, 'bad.safetensors')));
  }
});

test('sjd data images on Fashion-MNIST', { skip: fashion }, () => {
  const out = join(tempDir('sjd-data-fashion-'), 'test.safetensors');
  const r = sjd(
    'data',
    'images',
    '--split',
    'test',
    '--levels',
    '16',
    '--limit',
    '300',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const { source, ...set } = loadImageSet(out);
  assert.deepEqual(set, loadFashionMnist('test', undefined, { levels: 16, limit: 300 }));
  assert.match(source, /fashion-mnist test/);
});
