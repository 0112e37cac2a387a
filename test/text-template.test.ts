// Text templates: a prompt, a suffix or an infill with holes becomes known
// characters at their positions, the rest holes; every sampler a model's process runs keeps the
// known characters exactly as given and fills the holes (a tiny hybrid model trained here, and the
// shipped masked one); texts come back at the template's length; bad templates are refused in
// one line naming the character and its position, from the library and from `sjd sample text`.
// The infilling benchmark's holes: each shape as defined, seeded by the window,
// exact scores on the truth and on a sample wrong at every hole, and `sjd eval text --infill`;
// the infilling comparison (item 3) end to end at the tiny size, `sjd compare text --infill`.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { samplersFor } from '../src/sampling/index.js';
import {
  ALPHABET,
  HOLE_SHAPES,
  holeMask,
  loadTextModel,
  sampleText,
  scoreInfill,
  type TextTemplate,
  textTemplate,
} from '../src/tasks/text/index.js';
import { textSpec } from '../src/tasks/text/spec.js';
import { train } from '../src/train/index.js';
import { sjd } from './serve-fixture.js';
import { tempDir } from './tmp.js';

test('templates: prompt, suffix and infill at their positions; length; refusals name the problem', () => {
  assert.equal(textTemplate({}, 64), null);
  const p = textTemplate({ prompt: 'ab', suffix: 'z', length: 6 }, 64)!;
  assert.equal(p.length, 6);
  assert.deepEqual(p.known.slice(0, 7), [true, true, false, false, false, true, false]);
  assert.deepEqual(p.tokens.slice(0, 6), [0, 1, 0, 0, 0, 25]);
  const f = textTemplate({ infill: 'a_ _c' }, 64)!;
  assert.equal(f.length, 5);
  assert.deepEqual(f.known.slice(0, 5), [true, false, true, false, true]);
  assert.deepEqual(f.tokens.slice(0, 5), [0, 0, 26, 0, 2]);
  assert.equal(textTemplate({ length: 10 }, 64)!.known.some(Boolean), false);
  // fields are normalised as the corpus is, holes kept, and the template says which changed
  const n = textTemplate({ prompt: 'aB 1', infill: undefined }, 64)!;
  assert.deepEqual(n.normalised, { prompt: 'ab one ' });
  assert.deepEqual(n.tokens.slice(0, 7), [0, 1, 26, 14, 13, 4, 26]);
  const h = textTemplate({ infill: 'A-b__c' }, 64)!;
  assert.deepEqual(h.normalised, { infill: 'a b__c' });
  assert.deepEqual(h.known.slice(0, 6), [true, true, true, false, false, true]);
  assert.equal(textTemplate({ prompt: 'ab' }, 64)!.normalised, undefined);
  const bad: [Parameters<typeof textTemplate>[0], RegExp][] = [
    [{ infill: 'ab', prompt: 'a' }, /--infill is a whole template/],
    [{ prompt: 'abcdef', length: 4 }, /--prompt: 6 characters do not fit a text of 4/],
    [{ prompt: 'abc', suffix: 'cd', length: 4 }, /overlap at position 2/],
    [{ length: 65 }, /--length must be a whole number from 1 to the model's 64, got 65/],
    [{ infill: 'a'.repeat(65) }, /--infill has 65 characters; the model takes at most 64$/],
  ];
  for (const [spec, want] of bad) assert.throws(() => textTemplate(spec, 64), want);
});

/** Each text keeps the template's known characters and has its length. */
function assertClamped(texts: string[], template: TextTemplate, what: string) {
  for (const t of texts) {
    assert.equal(t.length, template.length, what);
    for (let i = 0; i < template.length; i++)
      if (template.known[i])
        assert.equal(
          t[i],
          ALPHABET[template.tokens[i]!],
          `${what}: position ${i} of ${JSON.stringify(t)}`,
        );
  }
}

test('every sampler keeps the known characters exactly (a hybrid model, the shipped masked one)', async () => {
  const dir = tempDir('sjd-template-');
  const run = textSpec.train.prepare(
    { out: 'x', size: 'tiny', steps: 4, process: 'hybrid', evalSamples: 1, evalNfe: 4 },
    undefined,
  );
  await train(join(dir, 'hybrid'), run.config, run.task, false);
  for (const m of [loadTextModel(join(dir, 'hybrid')), loadTextModel()]) {
    const L = m.model.config.length;
    const template = textTemplate(
      { infill: `the ${'_'.repeat(6)} of ${'_'.repeat(5)} history`, length: Math.min(L, 40) },
      L,
    )!;
    for (const sampler of samplersFor(m.process)) {
      const { texts } = sampleText(m.model, m.process, {
        n: 2,
        nfe: 8,
        seed: 1,
        sampler,
        template,
      });
      assertClamped(texts, template, `${m.process.config.name} ${sampler}`);
      // the holes are filled: no model keeps every one of them a space
      assert.ok(
        texts.some((t) => /[a-z]/.test(t.slice(4, 10))),
        `${sampler}: ${texts}`,
      );
    }
  }
});

test('sjd sample text --prompt / --infill print the template filled; a bad one is one line', () => {
  const r = sjd(
    'sample',
    'text',
    '--infill',
    'the ____ of the united states',
    '-n',
    '2',
    '--nfe',
    '16',
  );
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, 2);
  for (const l of lines) assert.match(l, /^the [a-z ]{4} of the united states$/);
  assert.match(r.stderr, /2 samples of 29 characters, 25 given, mdlm sampler, 16 NFE/);
  const folded = sjd('sample', 'text', '--prompt', 'Hello, World', '-n', '1', '--nfe', '4');
  assert.equal(folded.status, 0, folded.stderr);
  assert.match(folded.stderr, /^--prompt normalised as the corpus is: "hello world"$/m);
  assert.match(folded.stdout, /^hello world/);
});

test('infilling holes: the shapes, the same for every run, and the scores on exact cases', () => {
  const w = 'the cat sat on the mat and the dog ran far away from the big red barn today';
  for (const shape of HOLE_SHAPES) {
    const m = holeMask(shape, w, 3);
    assert.deepEqual(holeMask(shape, w, 3), m, shape); // seeded by the window's index
    if (shape.startsWith('span')) {
      const n = Number(shape.slice(4));
      const first = m.indexOf(true);
      assert.equal(m.filter(Boolean).length, n, shape);
      assert.ok(
        m.slice(first, first + n).every(Boolean) && first >= 8 && first + n <= w.length - 8,
      );
    }
  }
  const words = holeMask('words', w, 0);
  assert.equal(w.split('').filter((c, i) => words[i] && c === ' ').length, 0); // spaces stay
  assert.equal(words.slice(0, 3).some(Boolean), false); // 'the' (word 0) is kept
  assert.equal(words.slice(4, 7).every(Boolean), true); // 'cat' (word 1) is a hole
  const long = 'x'.repeat(20_000);
  const frac = holeMask('chars', long, 0).filter(Boolean).length / long.length;
  assert.ok(Math.abs(frac - 0.15) < 0.01, `${frac}`);
  assert.throws(() => holeMask('span32', 'a'.repeat(40), 0), /windows of at least 48/);
  // exact cases: the truth scores 1; a sample wrong at every hole scores 0 on characters
  const mask = holeMask('words', w, 0);
  const dict = new Set(w.split(' '));
  const truth = scoreInfill([w], [w], [mask], dict);
  assert.deepEqual([truth.char_accuracy, truth.valid_words], [1, 1]);
  const wrong = w
    .split('')
    .map((c, i) => (mask[i] ? 'q' : c))
    .join('');
  const s = scoreInfill([wrong], [w], [mask], dict);
  assert.deepEqual([s.char_accuracy, s.valid_words], [0, 0]);
  assert.equal(s.holes, mask.filter(Boolean).length);
});

test('sjd eval text --infill: each shape scored over seeds; per-window templates clamp their own characters', () => {
  const r = sjd(
    'eval',
    'text',
    '--infill',
    'span8,words',
    '-n',
    '4',
    '--nfe',
    '8',
    '--seeds',
    '0,1',
    '--json',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^span8: hole characters right [\d.]+ \+- [\d.]+%, words touching a hole valid [\d.]+ \+- [\d.]+%, hole cross-entropy [\d.]+ nats \(4 windows, 32 holes, seeds 0, 1\)$/m,
  );
  const j = JSON.parse(r.stdout.trimEnd().split('\n').at(-1)!);
  assert.deepEqual(
    j.results.map((x: { shape: string }) => x.shape),
    ['span8', 'words'],
  );
  assert.equal(j.results[0].bySeed.length, 2);
  const m = loadTextModel();
  const L = m.model.config.length;
  const windows = ['a', 'b'].map((c) => c.repeat(L));
  const templates = windows.map((w, i) => ({
    length: L,
    tokens: Array.from(w, (c) => ALPHABET.indexOf(c)),
    known: Array.from(w, (_, k) => !holeMask('span8', w, i)[k]),
  }));
  const { texts } = sampleText(m.model, m.process, { n: 2, nfe: 8, seed: 0, template: templates });
  texts.forEach((t, b) => {
    assertClamped([t], templates[b]!, `window ${b}`);
  });
  const bad = sjd('eval', 'text', '--infill', 'blocks');
  assert.notEqual(bad.status, 0);
  assert.match(
    bad.stderr.trim(),
    /unknown hole shape 'blocks' \(chars, span8, span16, span32, words\)$/,
  );
});

test('sjd compare text --infill: each model on the benchmark with a verdict per shape, cached beside its run', () => {
  const dir = tempDir('sjd-infill-compare-');
  const doc = join(dir, 'infilling.md');
  const args = ['compare', 'text', '--size', 'tiny', '--steps', '2', '-n', '2', '--seeds', '0'];
  const more = ['--models', 'masked,hybrid,sjd-row-1', '--infill', 'span8', '--infill-nfe', '4'];
  const r = sjd(...args, ...more, '--samplers', 'ancestral', '--out', dir, '--doc', doc);
  assert.equal(r.status, 0, r.stderr);
  const md = readFileSync(doc, 'utf8');
  assert.match(md, /## span8\n\n\| model \| sampler \| seeds \|/);
  assert.match(
    md,
    /\| MDLM \(masked\) \| mdlm \| 1 \| [\d.]+ \+- [\d.]+ \| [\d.]+ \+- [\d.]+ \| [\d.]+ \+- [\d.]+ \|/,
  );
  assert.match(
    md,
    /- SJD \(gauss1d-row W, sigma_W = 1\) [\d.]+ \+- [\d.]+% against CADD \(hybrid, W = I\)/,
  );
  assert.ok(existsSync(join(dir, 'hybrid-seed0', 'infill-ancestral.json')));
  assert.ok(existsSync(join(dir, 'masked-seed0', 'infill-mdlm.json')));
  // kept without their checkpoints, the runs resume elsewhere: nothing trained, the same report
  const kept = tempDir('sjd-infill-kept-');
  for (const [run, f] of [
    ['masked-seed0', 'infill-mdlm.json'],
    ['hybrid-seed0', 'infill-ancestral.json'],
    ['sjd-row-1-seed0', 'infill-ancestral.json'],
  ] as const) {
    mkdirSync(join(kept, run));
    for (const g of ['config.json', f]) copyFileSync(join(dir, run, g), join(kept, run, g));
  }
  const keptDoc = join(kept, 'infilling.md');
  const elsewhere = sjd(
    ...args,
    ...more,
    '--samplers',
    'ancestral',
    '--out',
    kept,
    '--doc',
    keptDoc,
  );
  assert.equal(elsewhere.status, 0, elsewhere.stderr);
  assert.doesNotMatch(elsewhere.stderr, /training /);
  assert.equal(readFileSync(keptDoc, 'utf8').replaceAll(kept, dir), md);
  const both = sjd(...args, '--hazards', 'uniform', '--infill', '--out', dir);
  assert.notEqual(both.status, 0);
  assert.match(
    both.stderr.trim(),
    /^sjd: --infill and --hazards are two comparisons: one at a time$/,
  );
  const nfes = sjd(...args, '--infill', '--nfes', '64', '--out', dir);
  assert.notEqual(nfes.status, 0);
  assert.match(
    nfes.stderr.trim(),
    /^sjd: --nfes sets the frontiers' budgets; --infill fills at --infill-nfe$/,
  );
});
