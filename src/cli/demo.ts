// `sjd demo [sudoku|reverse]`: the main job on a fresh machine. sudoku: generate puzzles and
// solve them with the shipped model (under Sudoku's rules unless --no-rules, by the default
// sampler for them unless --sampler says otherwise);
// reverse: a small transformer learns to reverse token sequences in a few seconds (no model
// needed); image: sample the shipped image model into a PNG grid.
import type { Command } from 'commander';
import { image, runReverseDemo, sudoku, torch, util } from '../index.js';
import type { PrecisionSetting } from '../model/auto-precision.js';
import type { SamplerName } from '../sampling/index.js';
import { int, nfe, pngFile, samplerOption, seed } from './options.js';
import { precisionPhrase, withPrecisionFlag } from './precision-flag.js';
import { heartbeat, withProgress } from './progress.js';
import {
  commitOptions,
  commitRule,
  loadModelOf,
  nfeDefaults,
  retriesOption,
  rulesOptions,
  samplerDefaults,
} from './sudoku/sampler-flags.js';
import { retryNote } from './sudoku/solve-report.js';

interface DemoOpts {
  steps: number;
  seed: number;
  length: number;
  count?: number;
  nfe?: number;
  sampler?: SamplerName;
  rules?: boolean;
  commitBy: 'probability' | 'margin';
  commitThreshold: number;
  undos: number;
  show: number;
  retries: number;
  model?: string;
  precision?: PrecisionSetting;
  out: string;
  force?: boolean;
}

export function registerDemo(program: Command): void {
  const cmd = program
    .command('demo [task]')
    .description(
      'sudoku (default): generate puzzles and solve them with the shipped model; image: sample the shipped image model into a PNG grid; reverse: train a tiny model for a few seconds',
    )
    .option('--seed <n>', 'random seed', seed, 0)
    .option(
      '--count <n>',
      'sudoku: puzzles to generate and solve (default 100); image: images (default 16)',
      int(1, 100_000),
    )
    .option(
      '--nfe <n>',
      `sudoku: classifier evaluations per puzzle (${nfeDefaults}); image: per image (default 64)`,
      nfe,
    );
  // the reverse demo trains its model (at float32) rather than sampling one at --precision
  withPrecisionFlag(
    rulesOptions(
      commitOptions(
        samplerOption(cmd, '--sampler', `sudoku: sampler (${samplerDefaults})`, undefined, true),
      ),
    ),
    (c) => (c.args[0] === 'reverse' ? null : (c.args[0] ?? 'sudoku')),
  )
    .option('--show <n>', 'sudoku: boards to print', int(0, 100), 2)
    .option(...retriesOption)
    .option('--model <dir>', 'a run folder or exported model instead of the shipped one')
    .option('--out <file>', 'image: the PNG grid to write', pngFile, 'sjd-demo-images.png')
    .option('--force', 'image: replace an existing --out file')
    .option('--steps <n>', 'reverse: training steps', int(1, 1_000_000), 400)
    .option('--length <n>', 'reverse: sequence length', int(2, 256), 12)
    .action(async (task: string | undefined, o: DemoOpts, c: Command) => {
      const which = task ?? 'sudoku';
      const demo = DEMOS[which];
      if (!demo) throw new Error(`unknown demo '${which}' (${Object.keys(DEMOS).join(', ')})`);
      const precision = precisionPhrase(c);
      console.log(
        `sjd demo ${which} (${torch.backend().label}, ${torch.getNumThreads()} threads)${precision === undefined ? '' : `, ${precision}`}`,
      );
      await demo(o);
    });
}

/** A reverse-sequence transformer trained in seconds (no model needed). */
async function reverseDemo(o: DemoOpts): Promise<void> {
  const r = await runReverseDemo({ ...o, vocab: 10, log: (l) => console.log(l) });
  console.log(`trained ${o.steps} steps in ${r.seconds.toFixed(1)} s`);
  console.log(`input     ${r.example.input.join(' ')}`);
  console.log(`reversed  ${r.example.output.join(' ')}  (model output)`);
  console.log(`held-out token accuracy ${(100 * r.accuracy).toFixed(1)}%`);
}

/** The shipped image model (or --model) sampled into a PNG grid. */
async function imageDemo(o: DemoOpts): Promise<void> {
  const n = o.count ?? 16;
  util.claimOutFile(o.out, o.force === true);
  const { model, process: proc, geometry: g, source } = image.loadImageModel(o.model, o.precision);
  const t0 = performance.now();
  const r = withProgress(`sampling ${n} images`, n, 'images', (progress) =>
    image.sampleImages(model, proc, g, { n, nfe: o.nfe, seed: o.seed, progress }),
  );
  util.writeFileAtomic(o.out, image.gridPng(r.images, n, g));
  console.log(
    `sampled ${util.counted(n, 'image')} of ${image.describeGeometry(g)} with ${source} (${r.nfe} NFE) in ${((performance.now() - t0) / 1000).toFixed(1)} s; wrote ${o.out}`,
  );
}

/** Puzzles generated here and solved with the shipped model (or --model). */
async function sudokuDemo(o: DemoOpts): Promise<void> {
  const loaded = loadModelOf(o);
  const { sampler, rules } = sudoku.sudokuSampling(o);
  const commit = commitRule({ ...o, sampler });
  const nfeCap = o.nfe ?? sudoku.defaultSudokuNfe(sampler);
  const count = o.count ?? 100;
  const beat = heartbeat(`solving ${count} puzzles`, (k) => `${k} batch passes of the network`);
  const r = sudoku.runSudokuDemo(loaded, {
    count,
    seed: o.seed,
    nfe: nfeCap,
    sampler,
    rules,
    commit,
    retries: o.retries,
    generated: (seconds) =>
      console.log(
        `generated ${count} puzzles without guessing in ${seconds.toFixed(1)} s; solving with ${loaded.source}`,
      ),
    onStep: (steps) => beat.update(steps),
  });
  beat.stop();
  for (let n = 0; n < Math.min(o.show, count); n++) {
    const ok = r.answers[n]!.every((d, i) => d === r.solutions[n]![i]);
    console.log(
      `\npuzzle ${n + 1} (${r.puzzles[n]!.filter((d) => d > 0).length} clues): ${ok ? 'solved' : 'not solved'}`,
    );
    console.log(sudoku.sideBySide(r.puzzles[n]!, r.answers[n]!));
  }
  const s = r.scores;
  console.log(
    `\nsolved ${Math.round(s.solve_rate * s.boards)}/${s.boards} boards (${(100 * s.solve_rate).toFixed(1)}%), cell accuracy ${(100 * s.cell_accuracy).toFixed(1)}%, ${(s.boards / r.seconds).toFixed(1)} boards/s (${sudoku.samplerLabel(sampler, commit)}; NFE per board mean ${r.nfe_mean.toFixed(1)}, max ${r.nfe_max} of ${nfeCap})${retryNote(r)}`,
  );
}

const DEMOS: Record<string, (o: DemoOpts) => Promise<void>> = {
  sudoku: sudokuDemo,
  image: imageDemo,
  reverse: reverseDemo,
};
