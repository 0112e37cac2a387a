// Run configs read from disk (src/train/config.ts) and the process vocabulary
// (src/process/choice.ts): old names migrate, bad fields are named in one line, and a process
// refuses what it does not take.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import { imageConfig } from '../src/tasks/image/presets.js';
import { sudokuConfig } from '../src/tasks/sudoku/presets.js';
import { textConfig } from '../src/tasks/text/presets.js';
import { parseConfig } from '../src/train/config.js';

// A config as plain JSON, edited field by field.
// biome-ignore lint/suspicious/noExplicitAny: JSON edited by hand, on purpose
type Cfg = any;

// the config.json of the model shipped before r2, written under the earlier names
const earlier = JSON.parse(
  readFileSync(new URL('../../test/fixtures/config-earlier-names.json', import.meta.url), 'utf8'),
);
const shipped = JSON.parse(
  readFileSync(new URL('../../models/sudoku/config.json', import.meta.url), 'utf8'),
);

test('configs written under the earlier names load under the new ones', () => {
  const old = {
    ...sudokuConfig({ size: 'tiny' }),
    model: { ...sudokuConfig({ size: 'tiny' }).model, size: undefined, name: 'tiny' },
    process: { preset: 'sjd', kernel: 'gaussian1d', sigmaW: 2 },
  };
  const c = parseConfig(JSON.parse(JSON.stringify(old)), 'old.json');
  assert.equal(c.model.size, 'tiny');
  assert.equal((c.model as Record<string, unknown>).name, undefined);
  assert.deepEqual(c.process, { name: 'sjd', blend: 'gauss1d', sigmaW: 2 });
  // the earlier shipped model's config predates the vocabulary
  assert.equal(earlier.model.name, 'cpu');
  assert.deepEqual(parseConfig(earlier, 'earlier').process, {
    name: 'sjd',
    blend: 'sudoku',
    sigmaW: 1.5,
  });
});

test("an image config written before sigma_B (process.preset, the blur's sigmaW) loads as name and sigmaB", () => {
  const now = imageConfig({ height: 8, width: 8, channels: 1, levels: 16 }, { size: 'tiny' });
  const { name, sigmaB, ...rest } = now.process;
  assert.deepEqual([name, rest.blend, sigmaB], ['sjd', 'blur2d', 2.5]);
  const old = JSON.parse(
    JSON.stringify({ ...now, process: { preset: name, sigmaW: sigmaB, ...rest } }),
  );
  assert.deepEqual(parseConfig(old, 'old.json'), now);
  assert.equal(P.describeProcess(now.process), 'SJD (blur, sigma_B = 2.5)');
  // W's sigmaW stays sigmaW: only the blur's bandwidth is sigma_B
  const text = textConfig({ size: 'tiny' });
  const { name: n, ...textRest } = text.process;
  const oldText = JSON.parse(JSON.stringify({ ...text, process: { preset: n, ...textRest } }));
  assert.deepEqual(parseConfig(oldText, 'old.json').process, text.process);
  assert.equal(text.process.sigmaW, 1);
});

test('the configs the presets write are valid as they are', () => {
  for (const size of ['tiny', 'cpu', 'paper'])
    for (const process of ['masked', 'hybrid', 'sjd'] as const) {
      const s = sudokuConfig({ size, process });
      assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(s)), 'x'), s);
      const t = textConfig({ size, process });
      assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(t)), 'x'), t);
    }
});

test('the cpu size holds its recipe; flags override its network and augmentation', () => {
  const cpu = sudokuConfig({ size: 'cpu' });
  assert.equal(cpu.model.attention, 'peers');
  assert.equal(cpu.augment, 'full');
  assert.deepEqual(cpu.lr, { kind: 'cosine', lr: 2e-3, warmup: 300, total: 16_000, minLr: 2e-4 });
  const dense = sudokuConfig({ size: 'cpu', attention: 'dense', augment: 'digits', loops: 2 });
  assert.equal('attention' in dense.model, false); // dense is the absence of a pattern
  assert.equal(dense.model.loops, 2);
  assert.equal(dense.augment, 'digits');
  // other sizes keep the paper's dense network and digit relabelling
  const paper = sudokuConfig({ size: 'paper' });
  assert.equal(paper.model.attention, undefined);
  assert.equal(paper.augment, 'digits');
  assert.equal(sudokuConfig({ size: 'tiny', attention: 'typed' }).model.attention, 'typed');
});

test("the plain network (the paper's Sudoku setting): the size's width and optimiser, no graph in the network", () => {
  for (const size of ['cpu', 'paper']) {
    const plain = sudokuConfig({ size, network: 'plain', process: 'hybrid' });
    const own = sudokuConfig({ size, process: 'hybrid' });
    assert.equal(plain.model.structure, false);
    assert.equal('attention' in plain.model, false); // dense
    assert.equal('loops' in plain.model, false); // one pass
    for (const k of ['width', 'depth', 'heads', 'mlpHidden', 'anchorDim'] as const)
      assert.equal(plain.model[k], own.model[k], k);
    assert.deepEqual([plain.lr, plain.batch, plain.augment], [own.lr, own.batch, own.augment]);
    assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(plain)), 'x'), plain);
  }
  // a flag given still overrides the setting; a pattern needs the structure the setting drops
  assert.equal(sudokuConfig({ size: 'cpu', network: 'plain', loops: 2 }).model.loops, 2);
  assert.throws(
    () => parseConfig(sudokuConfig({ size: 'cpu', network: 'plain', attention: 'peers' }), 'x'),
    /model\.attention: other than 'dense' needs the task's structure/,
  );
  assert.throws(
    () => sudokuConfig({ size: 'cpu', network: 'graph' }),
    /no network setting 'graph' \(plain\)/,
  );
});

for (const [what, edit, message] of [
  ['an absurd depth', (c: Cfg) => (c.model.depth = 1e9), /^m\.json: model\.depth: /],
  ['a negative width', (c: Cfg) => (c.model.width = -1), /^m\.json: model\.width: /],
  [
    'width not a multiple of heads',
    (c: Cfg) => (c.model.heads = 7),
    /width must be a multiple of heads/,
  ],
  ['an unknown process', (c: Cfg) => (c.process.name = 'bert'), /^m\.json: process\.name: /],
  [
    "sigmaB (the image blur's) on W",
    (c: Cfg) => (c.process.sigmaB = 1.5),
    /^m\.json: process\.sigmaB: sigma_B is the bandwidth of the image blur B, only with blend blur2d/,
  ],
  [
    'sigmaB on a process without W',
    (c: Cfg) => (c.process = { name: 'hybrid', sigmaB: 1 }),
    /^m\.json: process\.sigmaB: /,
  ],
  [
    'sigmaW on the image blur (beside its sigmaB)',
    (c: Cfg) => Object.assign(c.process, { blend: 'blur2d', sigmaB: 2 }),
    /^m\.json: process\.sigmaW: blend blur2d is the image blur B: its bandwidth is sigmaB/,
  ],
  ['a string seed', (c: Cfg) => (c.seed = 'zero'), /^m\.json: seed: /],
  ['no model', (c: Cfg) => delete c.model, /^m\.json: model: /],
  ['eta above 1', (c: Cfg) => (c.process.eta = 2), /^m\.json: process\.eta: /],
  ['a NaN learning rate', (c: Cfg) => (c.lr.lr = null), /^m\.json: lr\.lr: /],
] as const) {
  test(`a config with ${what} is refused in one line naming the field`, () => {
    const c = structuredClone(shipped);
    edit(c);
    assert.throws(
      () => parseConfig(c, 'm.json'),
      (e: Error) => message.test(e.message) && !e.message.includes('\n'),
    );
  });
}

test('the vocabulary: each process takes only what it has; W must fit the positions', () => {
  const shape = { length: 81 };
  const base = { shape, anchorDim: 8 };
  assert.deepEqual(P.chooseProcess({ ...base, name: 'masked' }), { name: 'masked' });
  assert.deepEqual(P.chooseProcess({ ...base, name: 'hybrid' }), {
    name: 'hybrid',
    vp: P.VP_DEFAULT,
  });
  assert.deepEqual(
    P.chooseProcess({ ...base, name: 'sjd', blend: 'sudoku', bandwidth: 1.5, eta: 0.5 }),
    {
      name: 'sjd',
      blend: 'sudoku',
      sigmaW: 1.5,
      eta: 0.5,
      vp: P.VP_DEFAULT,
    },
  );
  assert.throws(() => P.chooseProcess({ ...base, name: 'bert' }), /unknown process 'bert'/);
  assert.throws(
    () => P.chooseProcess({ ...base, name: 'hybrid', blend: 'sudoku' }),
    /the hybrid process has no blending matrix W/,
  );
  assert.throws(() => P.chooseProcess({ ...base, name: 'masked', eta: 0.5 }), /no eta/);
  assert.throws(
    () => P.chooseProcess({ ...base, name: 'sjd', blend: 'blur2d', bandwidth: 1 }),
    /blur2d blend needs positions on a 2-D grid/,
  );
  assert.throws(
    () =>
      P.chooseProcess({
        shape: { length: 64 },
        anchorDim: 8,
        name: 'sjd',
        blend: 'sudoku',
        bandwidth: 1,
      }),
    /the sudoku blend is for 81 cells, not 64/,
  );
  assert.throws(
    () => P.chooseProcess({ ...base, name: 'sjd', blend: 'gauss1d', bandwidth: 0 }),
    /--sigma-w must be > 0/,
  );
  assert.throws(
    () => P.makeSchedule('cubic', 8),
    /unknown schedule 'cubic' \(known: linear, rank\)/,
  );
  // W by name equals the builder it names
  const w = P.makeBlend('blur2d', { length: 12, grid: { height: 2, width: 3, channels: 2 } }, 1);
  const ref = P.grid2d(2, 3, 1, 'row', 2);
  assert.equal(w.L, ref.L);
  assert.equal(w.nnz, ref.nnz);
  assert.equal(
    P.describeProcess({ name: 'sjd', blend: 'sudoku', sigmaW: 1.5 }),
    'SJD (sudoku W, sigma_W = 1.5)',
  );
  assert.equal(P.describeProcess({ name: 'hybrid' }), 'CADD (hybrid, W = I)');
});
