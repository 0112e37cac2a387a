// End-to-end runs of the `sjd` command: the demo trains and its loss falls; bad input gets
// one line on stderr and exit status 2, never a stack trace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

test('sjd demo trains a transformer and its loss falls', () => {
  const r = sjd('demo', 'reverse', '--steps', '150', '--length', '8', '--seed', '3');
  assert.equal(r.status, 0, r.stderr);
  const losses = [...r.stdout.matchAll(/loss (\d+\.\d+)/g)].map((m) => Number(m[1]));
  assert.ok(losses.length >= 5);
  assert.ok(losses.at(-1)! < losses[0]! / 5, `losses ${losses}`);
  const acc = Number(/held-out token accuracy (\d+\.\d)%/.exec(r.stdout)![1]);
  assert.ok(acc > 90, `accuracy ${acc}`);
});

test('the same seed gives the same demo output', () => {
  const args = [
    'demo',
    'reverse',
    '--steps',
    '20',
    '--length',
    '6',
    '--seed',
    '5',
    '--threads',
    '1',
  ];
  const a = sjd(...args);
  const b = sjd(...args);
  const strip = (s: string) => s.replace(/in \d+\.\d s/, '');
  assert.equal(strip(a.stdout), strip(b.stdout));
});

for (const args of [
  ['demo', 'reverse', '--steps', 'abc'],
  ['demo', 'reverse', '--length', '1'],
  ['--threads', '0', 'info'],
  ['nonsense'],
]) {
  test(`bad input gets one line and exit 2: sjd ${args.join(' ')}`, () => {
    const r = sjd(...args);
    assert.equal(r.status, 2);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^sjd: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
}

test('sjd demo solves generated puzzles with the shipped model', () => {
  const r = sjd('demo', '--count', '4', '--nfe', '8', '--show', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /solving with .*models\/sudoku\/model\.safetensors/);
  const m = /solved (\d)\/4 boards \((\d+\.\d)%\), cell accuracy (\d+\.\d)%/.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m![3]) > 40, `the shipped model fills cells far above chance (11%): ${m![3]}%`);
});

test('sjd info names the libtorch build', () => {
  const r = sjd('info');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /libtorch 1\.\d+/);
});

test('text end to end: data text8, train text, sample text, eval text --frontier, export', () => {
  const dir = tempDir('sjd-cli-text-');
  const corpus = join(dir, 'corpus');
  const d = sjd('data', 'text8', '--out', corpus); // text8: the alias of `data text`
  assert.equal(d.status, 0, d.stderr);
  assert.match(
    d.stdout,
    /train \d{7}, valid \d+, test \d+ characters, alphabet a-z and space \(from sotu\)/,
  );
  assert.match(
    d.stdout,
    /^normalisation: \d+ accents stripped; \d+ other characters made spaces \(most: "," \d+/m,
  );
  const run = join(dir, 'run');
  const t = sjd(
    'train',
    'text',
    '--size',
    'tiny',
    '--process',
    'sjd',
    '--sigma-w',
    '1',
    '--out',
    run,
    '--data',
    corpus,
    '--eval-samples',
    '2',
    '--eval-nfe',
    '4',
  );
  assert.equal(t.status, 0, t.stderr);
  assert.match(
    t.stdout,
    /finished at step 20; valid_loss \d\.\d+, elbo_bits \d\.\d+, valid_words5 [\d.]+, unique_words [\d.]+/,
  );
  const config = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8'));
  assert.deepEqual(config.process, {
    name: 'sjd',
    blend: 'gauss1d-row', // the text default
    sigmaW: 1,
    vp: { kind: 'rank', rMin: 0.05, rMax: 0.4, anchorDim: 16, T: 1 }, // the tiny size's d
  });
  assert.equal(config.length, 64);
  const s = sjd('sample', 'text', '--model', run, '-n', '3', '--nfe', '8', '--seed', '4');
  assert.equal(s.status, 0, s.stderr);
  const lines = s.stdout.replace(/\n$/, '').split('\n'); // a sample may end in a space
  assert.equal(lines.length, 3);
  for (const l of lines) assert.match(l, /^[a-z ]{64}$/);
  // the same seed, the same samples: the exported model's run below, in another process, gives s
  const e = sjd('eval', 'text', '--model', run, '-n', '2', '--frontier', '--json');
  assert.equal(e.status, 0, e.stderr);
  const last = JSON.parse(e.stdout.trimEnd().split('\n').at(-1)!);
  assert.equal(last.points.length, 33);
  assert.deepEqual(Object.keys(last.maxima), ['32', '64', '128']);
  assert.ok(existsSync(join(run, 'frontier.svg')));
  const saved = JSON.parse(readFileSync(join(run, 'frontier.json'), 'utf8'));
  assert.equal(saved.curves[0].points.length, 33);
  assert.equal(saved.reference.samples, 1024); // held-out windows scored like the samples
  assert.match(e.stdout, /held-out text: valid words >= 5 [\d.]+%, >= 6 [\d.]+%, unique [\d.]+%/);
  // --out a folder that does not exist yet, with the exact sampler: made, and written
  const fresh = join(dir, 'new', 'frontier');
  const f = sjd(
    'eval',
    'text',
    '--model',
    run,
    '-n',
    '1',
    '--frontier',
    '--sampler',
    'ancestral',
    '--out',
    fresh,
  );
  assert.equal(f.status, 0, f.stderr);
  assert.equal(
    JSON.parse(readFileSync(join(fresh, 'frontier.json'), 'utf8')).curves[0].points.length,
    33,
  );
  const x = sjd('export', '--run', run, '--out', join(dir, 'model'), '--float32');
  assert.equal(x.status, 0, x.stderr);
  assert.equal(
    sjd('sample', 'text', '--model', join(dir, 'model'), '-n', '3', '--nfe', '8', '--seed', '4')
      .stdout,
    s.stdout,
  );
});

test('the shipped text model samples and is scored with no --model on a fresh machine', () => {
  const s = sjd('sample', 'text', '-n', '2', '--nfe', '16', '--seed', '1');
  assert.equal(s.status, 0, s.stderr);
  const lines = s.stdout.replace(/\n$/, '').split('\n'); // a sample may end with a space
  assert.equal(lines.length, 2);
  for (const l of lines) assert.match(l, /^[a-z ]{256}$/);
  assert.match(s.stderr, /2 samples of 256 characters, mdlm sampler, 16 NFE/);
  const e = sjd('eval', 'text', '-n', '4', '--nfe', '16', '--json');
  assert.equal(e.status, 0, e.stderr);
  const j = JSON.parse(e.stdout.trimEnd().split('\n').at(-1)!);
  assert.ok(j.valid_words5 >= 0 && j.valid_words5 <= 1);
  const f = sjd('eval', 'text', '--frontier');
  assert.notEqual(f.status, 0);
  assert.match(f.stderr.trim(), /^sjd: --frontier with the shipped model needs --out/);
});

const refused = tempDir('sjd-cli-bad-');
const x = join(refused, 'x'); // an --out that bad input must leave unmade
for (const [args, message] of [
  [['sample', 'text', '--model', '/nonexistent'], /not a model or run folder/],
  [['data', 'text8', '--from', '/nonexistent', '--out', x], /no such file or folder/],
  [
    ['train', 'text', '--out', x, '--process', 'sjd', '--sigma-w', '0'],
    /--sigma-w.*expected a number in/,
  ],
  [
    ['train', 'text', '--out', x, '--process', 'bert'],
    /expected one of masked, continuous, hybrid, sjd/,
  ],
  [
    ['train', 'text', '--out', x, '--process', 'hybrid', '--blend', 'gauss1d'],
    /the hybrid process has no blending matrix W/,
  ],
  [['train', 'text', '--out', x, '--schedule', 'cubic'], /expected one of linear, rank/],
] as const) {
  test(`bad text input gets one line: sjd ${args.join(' ')}`, () => {
    const r = sjd(...args);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(!existsSync(x), `${x} was made`);
  });
}

test('sjd compare text of masked models only: the report names no continuous schedule rather than an empty one', () => {
  const dir = tempDir('sjd-cli-cmp-masked-');
  const doc = join(dir, 'doc.md');
  const r = sjd(
    ...'compare text --size tiny --steps 2 --models masked --samplers ancestral -n 1 --nfes 4'.split(
      ' ',
    ),
    '--out',
    dir,
    '--doc',
    doc,
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    readFileSync(doc, 'utf8'),
    /continuous coordinate \(CADD, SJD\):\nnone \(no continuous model is done yet\); all models share/,
  );
});

test('sjd compare text trains each model, caches its frontier, and writes the report; a rerun reuses both', () => {
  const dir = tempDir('sjd-cli-cmp-');
  const doc = join(dir, 'doc.md');
  const args = [
    'compare',
    'text',
    '--size',
    'tiny',
    '--steps',
    '3',
    '--models',
    'hybrid,sjd-add-2,sjd-row-1',
    '--samplers',
    'ancestral,sjd-refresh',
    '-n',
    '1',
    '--nfes',
    '8,16',
    '--out',
    dir,
    '--doc',
    doc,
  ];
  const a = sjd(...args);
  assert.equal(a.status, 0, a.stderr);
  const md = readFileSync(doc, 'utf8');
  // one row per model and sampler, with the seeds done
  for (const sampler of ['ancestral', 'sjd-refresh'])
    assert.match(
      md,
      new RegExp(`\\| CADD \\(hybrid, W = I\\) \\| ${sampler} \\| 1 \\| [\\d.]+ \\| [\\d.]+ \\|\n`),
    );
  assert.match(md, /\| SJD \(gauss1d W, sigma_W = 2\) \| ancestral \| 1 \| /);
  assert.match(md, /\| SJD \(gauss1d-row W, sigma_W = 1\) \| sjd-refresh \| 1 \| /);
  // the verdicts: against CADD under the exact sampler, and the exact sampler against the other
  assert.match(
    md,
    /- SJD \(gauss1d-row W, sigma_W = 1\) \(ancestral\) [\d.]+ \+- 0\.0 against CADD \(ancestral\) [\d.]+ \+- 0\.0 \(1 and 1 seeds\): difference [+-][\d.]+ points, /,
  );
  assert.match(
    md,
    /- CADD \(hybrid, W = I\) \(ancestral\) [\d.]+ \+- 0\.0 against MDLM - |against MDLM: not measured yet/,
  );
  assert.match(md, /1 sample of 64 characters/);
  // the reproduce line, read back from the parsed options (cli/reproduce.ts)
  assert.ok(
    md.includes(
      `Reproduce: \`npx sjd compare text --out ${dir} --steps 3 --size tiny --seeds 0 --models hybrid,sjd-add-2,sjd-row-1 --samplers ancestral,sjd-refresh -n 1 --nfes 8,16 --doc ${doc}\``,
    ),
    md,
  );
  assert.match(md, /\(CADD, SJD\):\nCANDI's rank degradation, r from 0.05 to 0.4;/);
  assert.match(md, /3 steps of 8 windows of 64 characters, 24 windows\n\(1,536 characters\)/);
  // held-out text closes each of the three tables, scored like the samples
  assert.equal(md.match(/\| held-out text \| \| \| ([\d.]+) \| \1 \|\n/g)?.length, 3);
  assert.match(md, /## Valid words, length >= 5, at the diversity of held-out text/);
  // the frontiers' points beside it, linked (docs-links.test.ts: no file under docs/ unlinked)
  assert.ok(md.includes("The frontiers' points, run by run: [doc.json](doc.json)."), md);
  const json = JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8'));
  assert.ok(
    json.reference.unique_words > 0.5 && json.reference.valid_words5 > 0.5,
    JSON.stringify(json.reference),
  );
  assert.ok(
    existsSync(join(dir, 'doc.svg')) &&
      existsSync(join(dir, 'sjd-add-2-seed0', 'frontier-sjd-refresh.json')),
  );
  const b = sjd(...args);
  assert.equal(b.status, 0, b.stderr);
  assert.doesNotMatch(b.stderr, /training|resuming/);
  assert.equal(readFileSync(doc, 'utf8'), md);
  // a run's config and frontiers, kept without its checkpoint, resume the comparison elsewhere:
  // nothing is trained again and the report is the same
  const kept = tempDir('sjd-cli-cmp-kept-');
  for (const run of ['hybrid-seed0', 'sjd-add-2-seed0', 'sjd-row-1-seed0']) {
    mkdirSync(join(kept, run));
    for (const f of ['config.json', 'frontier-ancestral.json', 'frontier-sjd-refresh.json'])
      copyFileSync(join(dir, run, f), join(kept, run, f));
  }
  const keptDoc = join(kept, 'doc.md');
  const c = sjd(...args.map((a) => (a === dir ? kept : a === doc ? keptDoc : a)));
  assert.equal(c.status, 0, c.stderr);
  assert.doesNotMatch(c.stderr, /training|resuming/);
  assert.ok(!existsSync(join(kept, 'hybrid-seed0', 'checkpoint')));
  assert.equal(readFileSync(keptDoc, 'utf8').replaceAll(kept, dir), md);
  // the earlier spellings read as today's names: cadd is the hybrid run already made
  const cadd = sjd(...args.map((a) => (a === 'hybrid,sjd-add-2,sjd-row-1' ? 'cadd' : a)));
  assert.equal(cadd.status, 0, cadd.stderr);
  assert.doesNotMatch(cadd.stderr, /training|resuming/);
  assert.match(readFileSync(doc, 'utf8'), / --models hybrid --samplers /);
  // a trace stopped part-way resumes at its next point: the points it kept are taken as they are
  // (marked here), the rest traced as before, and the partial file goes
  const final = join(dir, 'hybrid-seed0', 'frontier-ancestral.json');
  const whole = JSON.parse(readFileSync(final, 'utf8'));
  const points = whole.curves[0].points as Record<string, number>[];
  const marked = points.slice(0, 5).map((q) => ({ ...q, valid_words5: 0.123456 }));
  const partial = join(dir, 'hybrid-seed0', 'frontier-ancestral.partial.json');
  const at = { n: whole.n, step: whole.step, seed: whole.seed, sampler: whole.sampler };
  writeFileSync(partial, JSON.stringify({ ...at, points: marked }));
  rmSync(final);
  const resumed = sjd(...args);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.ok(!existsSync(partial));
  const speedless = (q: Record<string, number>) => ({ ...q, chars_per_s: 0 });
  assert.deepEqual(
    JSON.parse(readFileSync(final, 'utf8')).curves[0].points.map(speedless),
    [...marked, ...points.slice(5)].map(speedless),
  );
  // --nfes: a frontier cached at more budgets serves fewer, untouched and nothing traced; the
  // report's columns and verdicts follow (the verdicts at the largest)
  const traced = readFileSync(final, 'utf8');
  const fewer = sjd(...args, '--nfes', '8');
  assert.equal(fewer.status, 0, fewer.stderr);
  assert.equal(readFileSync(final, 'utf8'), traced);
  const md8 = readFileSync(doc, 'utf8');
  assert.match(md8, /## Verdicts \(valid words >= 5, NFE 8\)/);
  assert.match(md8, /\| model \| sampler \| seeds \| NFE 8 \|\n/);
  assert.doesNotMatch(md8, /NFE 16/);
  // a budget not traced yet is traced alone; the points at the others are kept as they were
  const more = sjd(...args, '--nfes', '4,8');
  assert.equal(more.status, 0, more.stderr);
  const grown = JSON.parse(readFileSync(final, 'utf8')).curves[0].points as { nfe: number }[];
  assert.deepEqual(
    grown.filter((q) => q.nfe !== 4),
    JSON.parse(traced).curves[0].points,
  );
  assert.deepEqual(
    [...new Set(grown.map((q) => q.nfe))].sort((a, b) => a - b),
    [4, 8, 16],
  );
  assert.equal(grown.filter((q) => q.nfe === 4).length, 11);
  const badNfes = sjd(...args, '--nfes', '64,x');
  assert.equal(badNfes.status, 2);
  assert.match(badNfes.stderr, /expected a comma-separated list of NFE/);
  const bad = sjd('compare', 'text', '--steps', '3', '--out', dir, '--models', 'bert');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown model 'bert'/);
  const masked = sjd('compare', 'text', '--steps', '3', '--out', dir, '--samplers', 'mdlm');
  assert.equal(masked.status, 2);
  assert.match(
    masked.stderr,
    /sampler 'mdlm' cannot run the hybrid and sjd models of a comparison/,
  );
});
