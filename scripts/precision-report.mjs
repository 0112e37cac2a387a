#!/usr/bin/env node
// Writes docs/reports/precision.md from the results of scripts/precision-quality.sh (one JSON
// file each, in OUT): per task and figure, float32 and bfloat16 as mean +- std over the seeds
// run, the speed each way, and a verdict. bfloat16 keeps the result where the difference of the
// means is within two standard errors of the difference: the seeds' spread, or for a rate over N
// puzzles, at least the binomial error sqrt(p (1 - p) / N) of each run. The tasks `auto` keeps at
// float32 are read from the build (dist/, npm run build).
//   node scripts/precision-report.mjs [OUT] [REPORT]
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTO_KEEPS_FLOAT32 } from '../dist/src/model/auto-precision.js';

const out = process.argv[2] ?? 'runs/precision-quality';
const report = process.argv[3] ?? 'docs/reports/precision.md';
if (!existsSync(out)) {
  console.error(`precision-report: no folder ${out} (run scripts/precision-quality.sh first)`);
  process.exit(2);
}
const results = Object.fromEntries(
  readdirSync(out)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(out, f), 'utf8'))]),
);

/** The runs of `prefix` at precision p: {seed: json}. */
const runs = (prefix, p) =>
  Object.entries(results)
    .filter(([k]) => k.startsWith(`${prefix}-${p}-s`))
    .map(([, v]) => v);

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const std = (xs) =>
  xs.length < 2 ? 0 : Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

/**
 * One figure both ways: { f32, b16 } of { mean, std, n }, the standard error of the difference
 * (the seeds' spread, at least the binomial error for a rate over `count` items) and the verdict.
 */
function compare(prefix, read, count) {
  const side = (p) => {
    const xs = runs(prefix, p).map(read);
    const binomial = count ? Math.sqrt((mean(xs) * (1 - mean(xs))) / count) : 0;
    return {
      xs,
      mean: mean(xs),
      std: std(xs),
      se: Math.max(std(xs), binomial) / Math.sqrt(xs.length),
    };
  };
  const [f32, b16] = [side('float32'), side('bfloat16')];
  if (f32.xs.length === 0 || b16.xs.length === 0) return null;
  const se = Math.sqrt(f32.se ** 2 + b16.se ** 2);
  const diff = b16.mean - f32.mean;
  return { f32, b16, diff, se, within: Math.abs(diff) <= 2 * se };
}

const pct = (x) => `${(100 * x).toFixed(2)}%`;
const num = (x) => x.toFixed(3);
const both = (s, f) => `${f(s.mean)}${s.xs.length > 1 ? ` +- ${f(s.std)}` : ''} (${s.xs.length})`;

const rows = [];
const verdicts = {};
const missing = [];
function row(task, what, prefix, read, fmt, count) {
  const c = compare(prefix, read, count);
  if (!c) {
    missing.push(`${task}, ${what}`);
    return;
  }
  rows.push(
    `| ${task} | ${what} | ${both(c.f32, fmt)} | ${both(c.b16, fmt)} | ${fmt === pct ? `${(100 * c.diff).toFixed(2)} points` : num(c.diff)} +- ${fmt === pct ? (100 * c.se).toFixed(2) : num(c.se)} | ${c.within ? 'within' : '**outside**'} |`,
  );
  verdicts[task] = (verdicts[task] ?? true) && c.within;
}

for (const [set, name] of [
  ['noguess', 'no-guess test, first 2,000'],
  ['guess', 'guess-test (need search), 2,000'],
]) {
  row(
    'Sudoku',
    `${name}: solved at the defaults`,
    `sudoku-${set}-defaults`,
    (r) => r.solve_rate,
    pct,
    2000,
  );
  row(
    'Sudoku',
    `${name}: solved, model alone`,
    `sudoku-${set}-alone`,
    (r) => r.solve_rate,
    pct,
    2000,
  );
}
row('text', 'valid words >= 5, NFE 128', 'text-nfe128', (r) => r.valid_words5, pct);
row('text', 'unique words, NFE 128', 'text-nfe128', (r) => r.unique_words, pct);
for (const nfe of [64, 256])
  row('images', `FD, NFE ${nfe}`, `image-nfe${nfe}`, (r) => r.samples.fd, num);

/** Speed at each precision, mean over the runs of `prefix`. */
function speed(prefix, read, unit) {
  const [a, b] = ['float32', 'bfloat16'].map((p) => runs(prefix, p).map(read));
  if (a.length === 0 || b.length === 0) return null;
  return `${mean(a).toFixed(1)} against ${mean(b).toFixed(1)} ${unit} (${(mean(b) / mean(a)).toFixed(2)}x)`;
}
const speeds = [
  [
    'Sudoku, no-guess at the defaults',
    speed('sudoku-noguess-defaults', (r) => r.boards_per_s, 'boards/s'),
  ],
  [
    'Sudoku, guess-test at the defaults',
    speed('sudoku-guess-defaults', (r) => r.boards_per_s, 'boards/s'),
  ],
  ['text, NFE 128', speed('text-nfe128', (r) => r.chars_per_s, 'characters/s')],
  ['images, NFE 64', speed('image-nfe64', (r) => r.n / r.seconds, 'images/s')],
].filter(([, s]) => s);

const text = `# bfloat16 against float32 sampling, task by task

What the network's compute precision costs in quality (docs/commands.md, \`--precision\`): the
shipped models sampled by the commands a user runs, at float32 and at bfloat16 (matrix products
and convolutions under autocast, the logits and the process after them as in float32), with the
same seeds. Written by \`node scripts/precision-report.mjs training/precision-quality\` from the
results of \`scripts/precision-quality.sh ../shared/data/sudoku\` (their JSON lines kept in
training/precision-quality; one thread each, on this project's 2-core
AMD EPYC with AVX-512 BF16, beside other one-thread jobs, so speeds are the loaded machine's).

- Sudoku: \`sjd eval sudoku\` on the first 2,000 of \`qqwing_noguess_test.csv\` and on 2,000
  generated puzzles that need search (\`guess-test\` of [sudoku-hard.md](../sudoku-hard.md), seed
  101), at the defaults (Sudoku's rules, \`adaptive-remask\`, retries; seed 0) and with the model
  alone (\`--no-rules --retries 0\`: the adaptive sampler, one attempt; seeds 0 and 1).
- Text: \`sjd eval text --nfe 128 -n 64\` at the default temperature, seeds 0, 1, 2: the valid- and
  unique-word fractions, the frontier's point at NFE 128.
- Images: \`sjd eval image --nfe 64|256 -n 500\`, seeds 0, 1, 2: the Fréchet distance of the
  samples in the shipped feature network's space (lower is better; the feature network itself
  in float32).

Each figure is mean +- std over the seeds (their number in brackets); bfloat16 is *within* where
the difference of the means is within two standard errors of the difference (the seeds' spread,
and for a solve rate at least the binomial error of 2,000 puzzles).

| task | figure | float32 | bfloat16 | difference | bfloat16 |
|---|---|---|---|---|---|
${rows.join('\n')}

Speed in the same runs, float32 against bfloat16 (one thread, loaded machine; \`npm run bench\`
gives the ratios on a quiet one):

${speeds.map(([k, s]) => `- ${k}: ${s}`).join('\n')}

${missing.length > 0 ? `Not measured yet (scripts/precision-quality.sh goes on where it stopped): ${missing.join('; ')}.\n\n` : ''}Verdict so far: ${Object.entries(
  verdicts,
)
  .map(([t, ok]) => {
    const left = missing.filter((m) => m.startsWith(`${t},`)).length;
    const so = `${ok ? 'within' : 'outside'} float32's spread`;
    return `${t} ${so}${left > 0 ? ` on the figures measured (${left} to come)` : ''}`;
  })
  .join(
    '; ',
  )}. Under \`--precision auto\` (src/model/auto-precision.ts) every task is bfloat16 where
the hardware has it${
  Object.keys(AUTO_KEEPS_FLOAT32).length === 0
    ? ''
    : `, except: ${Object.entries(AUTO_KEEPS_FLOAT32)
        .map(([t, why]) => `${t} (${why.replace(/^auto: /, '')})`)
        .join('; ')}`
}.
`;
const tmp = `${report}.tmp`;
writeFileSync(tmp, text);
renameSync(tmp, report);
console.log(`wrote ${report}: ${rows.length} figures`);
