// Image sets from the data people have, through `sjd data images`: a folder of PNG and JPEG
// files of mixed sizes and modes (resized to cover --size and centre-cropped, RGB, labelled by
// class subfolders; unlabelled without them; grey by --channels 1), and CIFAR-10's binary batches
// (a file the test writes in that format: each pixel value where the format puts it). A folder's
// set then trains an image denoiser, samples a PNG grid, trains a feature network and is
// evaluated, all through the CLI (a CIFAR-format set is trained on by image-paper-size.test.ts).
// Bad files get one line naming the file (and the byte), and no output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { CIFAR_RECORD, loadImageSet } from '../src/tasks/image/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
  });

/** A solid image of `rgb` at h x w, written as PNG or JPEG. */
async function solid(path: string, h: number, w: number, rgb: [number, number, number]) {
  const img = sharp({
    create: { width: w, height: h, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } },
  });
  const encoded = path.endsWith('.png')
    ? img.png()
    : path.endsWith('.webp')
      ? img.webp({ lossless: true })
      : img.jpeg({ quality: 100 });
  await encoded.toFile(path);
}

/**
 * CLI data -> train -> sample -> train features -> eval on an image set file of `n` images: the
 * training holds out a tenth of them by default (spread through the set, not trained on), and
 * records the share, which a resume keeps.
 */
function endToEnd(dir: string, set: string, n: number) {
  const run = join(dir, 'run');
  const t = sjd('train', 'image', '--size', 'tiny', '--data', set, '--steps', '4', '--out', run);
  assert.equal(t.status, 0, t.stderr);
  const held = Math.floor(n / 10);
  assert.match(
    t.stdout + t.stderr,
    new RegExp(
      `${n - held} training images from .*; evaluating on ${held} from .* \\(--hold-out 0\\.1, not trained on\\)`,
    ),
  );
  assert.equal(JSON.parse(readFileSync(join(run, 'config.json'), 'utf8')).holdOut, '0.1');
  const more = sjd('train', 'image', '--resume', '--steps', '5', '--out', run);
  assert.equal(more.status, 0, more.stderr);
  const other = sjd('train', 'image', '--resume', '--hold-out', '3', '--steps', '6', '--out', run);
  assert.equal(other.status, 1);
  assert.equal(other.stderr, 'sjd: --hold-out 3: the run in --out holds out 0.1\n');
  const grid = join(dir, 'grid.png');
  const s = sjd('sample', 'image', '--model', run, '--out', grid, '-n', '4', '--nfe', '3');
  assert.equal(s.status, 0, s.stderr);
  assert.ok(existsSync(grid));
  // the shipped features score Fashion-MNIST's size: the refusal says how to get a network
  const shipped = sjd('eval', 'image', '--model', run, '-n', '20', '--nfe', '2');
  assert.equal(shipped.status, 1);
  assert.match(
    shipped.stderr,
    /^sjd: .*fashion-features scores 28 x 28 x 1 images; the model makes 16 x 16 x 3, 256 levels: the score needs a feature network for the model's images, which sjd train features --data FILE --out DIR trains on labelled images of that size \(then --features DIR\)\n$/,
  );
  // its accuracy on a tenth of the set, held out
  const feats = join(dir, 'features');
  const f = sjd('train', 'features', '--out', feats, '--data', set, '--steps', '3', '--batch', '8');
  assert.equal(f.status, 0, f.stderr);
  const e = sjd(
    'eval',
    'image',
    '--model',
    run,
    '--features',
    feats,
    '--data',
    set,
    '--eval-data',
    set,
    '-n',
    '20',
    '--nfe',
    '3',
  );
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stdout, /samples: FD \d/);
}

test('a folder of PNGs, JPEGs and a WebP of mixed sizes, in class folders: resized, cropped, labelled, RGB', async () => {
  const dir = tempDir('sjd-img-folder-');
  const src = join(dir, 'photos');
  for (const c of ['cats', 'dogs']) mkdirSync(join(src, c), { recursive: true });
  // cats red, dogs blue; sizes and formats mixed; a file that is not an image is ignored
  for (let i = 0; i < 10; i++) {
    await solid(join(src, 'cats', `c${i}.png`), 20 + i, 30, [255, 0, 0]);
    await solid(join(src, 'dogs', `d${i}.jpg`), 24, 18 + 2 * i, [0, 0, 255]);
  }
  await solid(join(src, 'cats', 'c10.webp'), 22, 22, [255, 0, 0]); // WebP, read as the others
  writeFileSync(join(src, 'cats', 'notes.txt'), 'not an image');
  const out = join(dir, 'set.safetensors');
  const r = sjd('data', 'images', '--from', src, '--resize', '16x16', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^wrote .*: 21 labelled images 3x16x16, 256 levels \(.*2 classes \(cats, dogs\)\)/,
  );
  const set = loadImageSet(out);
  assert.deepEqual([set.n, set.channels, set.height, set.width], [21, 3, 16, 16]);
  assert.deepEqual([...set.labels!], [...Array(11).fill(0), ...Array(10).fill(1)]);
  const plane = 16 * 16;
  const at = (n: number, c: number) => set.images[n * 3 * plane + c * plane + 100]!;
  assert.deepEqual([at(0, 0), at(0, 1), at(0, 2)], [255, 0, 0]); // a red PNG
  assert.deepEqual([at(2, 0), at(2, 1), at(2, 2)], [255, 0, 0]); // the WebP (c10 sorts third)
  const blue = [at(15, 0), at(15, 1), at(15, 2)]; // a blue JPEG (lossy: within a few levels)
  assert.ok(blue[0]! <= 4 && blue[1]! <= 4 && blue[2]! >= 250, `blue ${blue}`);
  endToEnd(dir, out, 21);
});

test('an unlabelled folder, grey by --channels 1, and what is refused', async () => {
  const dir = tempDir('sjd-img-flat-');
  const src = join(dir, 'flat');
  mkdirSync(src);
  for (let i = 0; i < 4; i++) await solid(join(src, `x${i}.png`), 8, 8, [200, 200, 200]);
  const out = join(dir, 'grey.safetensors');
  const r = sjd('data', 'images', '--from', src, '--channels', '1', '--levels', '16', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  const set = loadImageSet(out);
  assert.deepEqual([set.n, set.channels, set.levels, set.labels], [4, 1, 16, null]);
  assert.equal(set.images[0], 200 >> 4);
  // the feature network of the scores needs labels: refused, saying what would do
  const feats = sjd('train', 'features', '--data', out, '--out', join(dir, 'feats'));
  assert.equal(feats.status, 1);
  assert.match(
    feats.stderr,
    /^sjd: .*grey\.safetensors: unlabelled images; the feature network is a classifier and trains on labelled ones: make the set from a folder with a subfolder for each class .*--features of a network trained on a labelled set of the same size\n$/,
  );
  assert.ok(!existsSync(join(dir, 'feats')));
  // mixed sizes without --size: the file that differs is named, nothing written
  await solid(join(src, 'y.png'), 9, 8, [0, 0, 0]);
  const mixed = sjd('data', 'images', '--from', src, '--out', join(dir, 'mixed.safetensors'));
  assert.equal(mixed.status, 1);
  assert.match(
    mixed.stderr,
    /^sjd: .*y\.png: 9x8, not 8x8 as .*x0\.png; give --resize HxW to resize every image\n$/,
  );
  assert.ok(!existsSync(join(dir, 'mixed.safetensors')));
  // a broken PNG is named
  writeFileSync(join(src, 'z.png'), 'not a png at all');
  const broken = sjd(
    'data',
    'images',
    '--from',
    src,
    '--resize',
    '8x8',
    '--out',
    join(dir, 'b.safetensors'),
  );
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /^sjd: .*z\.png: not a readable image \(/);
  const size = sjd(
    'data',
    'images',
    '--from',
    src,
    '--resize',
    '8by8',
    '--out',
    join(dir, 'c.safetensors'),
  );
  assert.equal(size.status, 2);
  assert.match(size.stderr, /--resize must be HxW/);
  // --size, its earlier name (a preset in sjd train), is still taken
  const old = sjd(
    'data',
    'images',
    '--from',
    src,
    '--size',
    '8x8',
    '--out',
    join(dir, 'd.safetensors'),
  );
  assert.notEqual(old.stderr, '');
  assert.match(old.stderr, /z\.png: not a readable image/); // read as --resize would: to the broken file
});

test("CIFAR-10's binary format: records read where the format puts each byte", () => {
  const dir = tempDir('sjd-cifar-');
  const n = 24;
  const buf = Buffer.alloc(n * CIFAR_RECORD);
  for (let r = 0; r < n; r++) {
    buf[r * CIFAR_RECORD] = r % 10; // the label
    for (let p = 0; p < 3 * 1024; p++) buf[r * CIFAR_RECORD + 1 + p] = (r * 7 + p) % 256; // R, G, B planes
  }
  const batches = join(dir, 'cifar-10-batches-bin');
  mkdirSync(batches);
  writeFileSync(join(batches, 'data_batch_1.bin'), buf);
  writeFileSync(join(batches, 'test_batch.bin'), buf.subarray(0, 8 * CIFAR_RECORD));
  const out = join(dir, 'train.safetensors');
  const r = sjd('data', 'images', '--from', dir, '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /24 labelled images 3x32x32, 256 levels \(cifar-10 train/);
  const set = loadImageSet(out);
  assert.deepEqual([...set.labels!].slice(0, 12), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]);
  // image 5, green plane (c = 1), row 3, column 4: the record's byte 1 + 1024 + 3 * 32 + 4
  const p = 1024 + 3 * 32 + 4;
  assert.equal(set.images[5 * 3072 + p], (5 * 7 + p) % 256);
  const test8 = sjd(
    'data',
    'images',
    '--from',
    dir,
    '--split',
    'test',
    '--levels',
    '64',
    '--out',
    join(dir, 'test.safetensors'),
  );
  assert.equal(test8.status, 0, test8.stderr);
  assert.match(test8.stdout, /8 labelled images 3x32x32, 64 levels/);
  // a cut file and a wrong label byte are named
  const cut = join(dir, 'cut.bin');
  writeFileSync(cut, buf.subarray(0, CIFAR_RECORD + 5));
  const c = sjd('data', 'images', '--from', cut, '--out', join(dir, 'cut.safetensors'));
  assert.equal(c.status, 1);
  assert.match(
    c.stderr,
    /^sjd: .*cut\.bin: 3078 bytes, not a whole number of CIFAR-10 records \(3073 bytes each\)\n$/,
  );
  const wrong = Buffer.from(buf.subarray(0, 2 * CIFAR_RECORD));
  wrong[CIFAR_RECORD] = 17;
  writeFileSync(cut, wrong);
  const w = sjd('data', 'images', '--from', cut, '--out', join(dir, 'cut.safetensors'));
  assert.match(
    w.stderr,
    /^sjd: cut\.bin: byte 3073 \(record 1\) is label 17, not 0\.\.9: not a CIFAR-10 batch\n$/,
  );
});
