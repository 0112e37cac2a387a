// The TypeScript backend (src/torch/js/) against the libtorch addon in one process, the same
// code on each (torch.withBackend), libtorch on one thread as the TypeScript backend runs: the
// shipped Sudoku model's forward pass (16 boards, the CPU's solve batch), a Sudoku solve at the
// defaults (64 generated no-guess boards: the sampler, its rules and retries), and the shipped text
// model's sample at NFE 64 (8 samples of its length). sjd_ms is the TypeScript backend's, ref_ms
// libtorch's; each row names the boards or characters a second and whether both backends gave
// the same answers (boards solved; text: the valid-word fraction is the task's metric, in
// docs/text.md, not timed here).
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { loadSudokuModel } from '../src/tasks/sudoku/load.js';
import { solveSudoku } from '../src/tasks/sudoku/solve.js';
import { defaultSudokuNfe, sudokuSampling } from '../src/tasks/sudoku/solve-defaults.js';
import { loadTextModel } from '../src/tasks/text/load.js';
import { sampleText } from '../src/tasks/text/sample.js';
import {
  type BackendName,
  full,
  getNumThreads,
  noGrad,
  setNumThreads,
  tensor,
  tidy,
  withBackend,
} from '../src/torch/index.js';
import { median } from './reference.js';
import { type BenchResult, register } from './registry.js';

/** fn's median time over `rounds` runs on each backend (one warm-up each), libtorch at one thread. */
function onBoth<T>(
  rounds: number,
  make: () => () => T,
): { sjd_ms: number; ref_ms: number; js: T; torch: T } {
  const threads = getNumThreads();
  const time = (name: BackendName) =>
    withBackend(name, () => {
      const run = make();
      let last = run();
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        last = run();
        times.push(performance.now() - t0);
      }
      return { ms: median(times), last };
    });
  setNumThreads(1);
  try {
    const torch = time('torch');
    const js = time('js');
    return { sjd_ms: js.ms, ref_ms: torch.ms, js: js.last, torch: torch.last };
  } finally {
    setNumThreads(threads);
  }
}

const BOARDS = 16;

register(
  'js-sudoku-forward',
  (): BenchResult => {
    const { puzzles } = generatedPairs(BOARDS, 3);
    const r = onBoth(5, () => {
      const { model } = loadSudokuModel();
      model.eval();
      const x = puzzles.flatMap((p) => Array.from(p, (d) => Math.max(d - 1, 0)));
      return () =>
        tidy(() =>
          noGrad(() => {
            // the puzzles' digits as anchors (a blank as digit 1: the network's cost is the same)
            const idx = tensor(x, [BOARDS * 81], 'int64'); // [B * 81]
            const y = model.anchors.forward().indexSelect(0, idx).view([BOARDS, 81, -1]); // [B, 81, d]
            return model
              .forward(y, full([BOARDS], 0.5))
              .sum()
              .item(); // logits [B, 81, 9] summed
          }),
        );
    });
    return { sjd_ms: r.sjd_ms, ref_ms: r.ref_ms, logit_sum_js: r.js, logit_sum_torch: r.torch };
  },
  'the libtorch addon at one thread, same model and inputs',
);

register(
  'js-sudoku-solve',
  (): BenchResult => {
    const n = 64;
    const { puzzles, solutions } = generatedPairs(n, 3);
    const { sampler, rules } = sudokuSampling({});
    const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0 };
    const r = onBoth(1, () => {
      const { model, process: proc } = loadSudokuModel();
      return () => {
        const s = solveSudoku(model, proc, puzzles, settings);
        return s.boards.filter((b, i) => b.every((d, k) => d === solutions[i]![k])).length;
      };
    });
    return {
      sjd_ms: r.sjd_ms,
      ref_ms: r.ref_ms,
      boards_per_s: (n * 1000) / r.sjd_ms,
      torch_boards_per_s: (n * 1000) / r.ref_ms,
      solved_js: r.js,
      solved_torch: r.torch,
    };
  },
  'the libtorch addon at one thread, same boards and settings',
);

register(
  'js-text-sample-64nfe',
  (): BenchResult => {
    const n = 8;
    let L = 0;
    const r = onBoth(1, () => {
      const { model, process: proc } = loadTextModel();
      model.eval();
      return () => {
        const { texts } = sampleText(model, proc, {
          n,
          nfe: 64,
          temperature: 1,
          seed: 0,
          batch: n,
        });
        L = texts[0]!.length;
        return texts.join('').length;
      };
    });
    return {
      sjd_ms: r.sjd_ms,
      ref_ms: r.ref_ms,
      samples: n,
      chars_per_s: (n * L * 1000) / r.sjd_ms,
      torch_chars_per_s: (n * L * 1000) / r.ref_ms,
    };
  },
  'the libtorch addon at one thread, same model and settings',
);
