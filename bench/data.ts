// Data loading, against reading the same bytes in the same process (the I/O and UTF-8 floor):
// (a) images a second from a folder of PNG and JPEG files of mixed sizes (96 files, 28 x 28 to
// 64 x 48, colour), decoded, cropped and resized to 32 x 32 by sharp (image/folder.ts), against
// reading each file's bytes; (b) tokens a second of `sjd data tokens` (GPT-2's BPE through
// js-tiktoken, the corpus folder written, 1 MB of the embedded text), against reading and
// decoding that text. Rounds interleaved, medians.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { readImageFolder } from '../src/tasks/image/folder.js';
import { embeddedFiles } from '../src/tasks/text/source.js';
import { writeTokenCorpus } from '../src/tasks/text/tokens/token-corpus.js';
import { median } from './reference.js';
import { type BenchResult, register } from './registry.js';

const ROUNDS = 5;

/** Median milliseconds of `ours` and `ref`, alternated for ROUNDS rounds after one warm-up. */
async function alternated(
  ours: () => unknown,
  ref: () => unknown,
): Promise<{ sjd_ms: number; ref_ms: number }> {
  await ours();
  await ref();
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    await ours();
    a.push(performance.now() - t0);
    t0 = performance.now();
    await ref();
    b.push(performance.now() - t0);
  }
  return { sjd_ms: median(a), ref_ms: median(b) };
}

const workDir = (name: string) => {
  const d = join(tmpdir(), `sjd-bench-${name}-${process.pid}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** 96 images of mixed sizes and formats, seeded noise over gradients. */
async function imageFolder(): Promise<string> {
  const dir = workDir('images');
  const sizes = [
    [28, 28],
    [32, 32],
    [64, 48],
    [40, 56],
  ] as const;
  let seed = 1;
  for (let i = 0; i < 96; i++) {
    const [w, h] = sizes[i % sizes.length]!;
    const px = Buffer.alloc(w * h * 3);
    for (let k = 0; k < px.length; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      px[k] = ((k % (w * 3)) * 4 + (seed >> 24)) & 255;
    }
    const img = sharp(px, { raw: { width: w, height: h, channels: 3 } });
    const file = join(dir, `img${String(i).padStart(3, '0')}.${i % 3 === 2 ? 'jpg' : 'png'}`);
    writeFileSync(file, await (i % 3 === 2 ? img.jpeg() : img.png()).toBuffer());
  }
  return dir;
}

register(
  'data-images',
  async (): Promise<BenchResult> => {
    const dir = await imageFolder();
    const files = readdirSync(dir).map((f) => join(dir, f));
    const r = await alternated(
      () => readImageFolder(dir, { size: [32, 32] }),
      () => {
        for (const f of files) readFileSync(f);
      },
    );
    rmSync(dir, { recursive: true, force: true });
    return { ...r, images_per_s: (files.length * 1000) / r.sjd_ms };
  },
  'reading the files alone',
);

register(
  'data-tokens',
  async (): Promise<BenchResult> => {
    const dir = workDir('tokens');
    const text = embeddedFiles()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n')
      .slice(0, 1_000_000);
    const src = join(dir, 'text.txt');
    writeFileSync(src, text);
    let tokens = 0;
    const r = await alternated(
      () => {
        const meta = writeTokenCorpus(src, join(dir, 'corpus'), { tokenizer: 'gpt2', force: true });
        const s = meta.splits;
        tokens = s.train.tokens + s.valid.tokens + s.test.tokens;
      },
      () => readFileSync(src, 'utf8').length,
    );
    rmSync(dir, { recursive: true, force: true });
    return { ...r, tokens_per_s: (tokens * 1000) / r.sjd_ms };
  },
  'reading and decoding the text alone',
);
