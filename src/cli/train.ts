// `sjd train sudoku`: trains a denoiser into a run folder (config, manifest, checkpoints,
// metrics.csv, metrics.svg) with a progress bar; --resume continues exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { defaultPairs, SHARED_TEST, SHARED_TRAIN } from '../tasks/sudoku/data.js';
import { SUDOKU_KERNELS, SUDOKU_PRESETS, sudokuConfig } from '../tasks/sudoku/presets.js';
import { SudokuTask } from '../tasks/sudoku/task.js';
import { EMBEDDED, loadCorpus } from '../tasks/text/corpus.js';
import { TEXT_PROCESSES, TEXT_SCHEDULES, TEXT_SIZES, textConfig } from '../tasks/text/presets.js';
import { TextTask } from '../tasks/text/task.js';
import { checkRunFolder, type TrainConfig, type TrainTask, train } from '../train/trainer.js';
import { group, int, num, oneOf } from './options.js';

interface TrainOpts {
  preset: string;
  out: string;
  seed: number;
  kernel: string;
  steps?: number;
  resume?: boolean;
  data?: string;
  evalData?: string;
  evalSize: number;
  evalNfe: number;
  evalSampler: string;
  augment: boolean;
  anchors: 'learned' | 'frozen';
}

interface TextTrainOpts {
  out: string;
  preset: string;
  sigmaW: number;
  schedule: string;
  size: string;
  seed: number;
  steps?: number;
  resume?: boolean;
  data?: string;
  evalSamples: number;
  evalNfe: number;
}

type TextTrainConfig = TrainConfig & { length: number; data: string };

export function registerTrain(program: Command): void {
  const cmd = group(program, 'train', 'train a denoiser');
  cmd
    .command('sudoku')
    .description('train a Sudoku denoiser (CADD: --kernel identity; SJD: --kernel sudoku)')
    .requiredOption('--out <dir>', 'run folder')
    .option(
      '--preset <name>',
      `model and optimiser preset (${Object.keys(SUDOKU_PRESETS).join(', ')})`,
      oneOf(Object.keys(SUDOKU_PRESETS)),
      'cpu',
    )
    .option(
      '--kernel <name>',
      `blending kernel (${Object.keys(SUDOKU_KERNELS).join(', ')})`,
      oneOf(Object.keys(SUDOKU_KERNELS)),
      'sudoku',
    )
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
    .option('--steps <n>', 'training steps (default: the preset)', int(1, 10_000_000))
    .option('--resume', 'continue the run in --out from its checkpoint')
    .option(
      '--data <file>',
      'training puzzles, .csv or .npy (default: ../shared if present, else generated)',
    )
    .option('--eval-data <file>', 'held-out puzzles for evaluation')
    .option('--eval-size <n>', 'held-out puzzles per evaluation', int(1, 100_000), 200)
    .option('--eval-nfe <n>', 'NFE budget of the evaluation sampler', int(1, 4096), 32)
    .option(
      '--eval-sampler <name>',
      'evaluation sampler (confidence, sjd)',
      oneOf(['confidence', 'sjd']),
      'confidence',
    )
    .option('--no-augment', 'no random digit relabelling of training boards')
    .option(
      '--anchors <mode>',
      'learned (CDCD-normalised) or frozen random anchors',
      oneOf(['learned', 'frozen']),
      'learned',
    )
    .action(async (o: TrainOpts) => {
      checkRunFolder(o.out, o.resume === true);
      const base = sudokuConfig(o.preset, o.kernel, o.seed, { steps: o.steps });
      const config = { ...base, model: { ...base.model, anchors: o.anchors } };
      const { pairs: trainSet, source } = defaultPairs(o.data, SHARED_TRAIN, undefined, {
        n: 20_000,
        seed: 1,
      });
      const { pairs: held, source: heldSource } = defaultPairs(
        o.evalData,
        SHARED_TEST,
        o.evalSize,
        { n: o.evalSize, seed: 2 },
      );
      const task = new SudokuTask(trainSet, held, {
        evalSize: o.evalSize,
        evalNfe: o.evalNfe,
        evalSampler: o.evalSampler,
        augment: o.augment,
      });
      console.error(
        `sjd train sudoku: ${trainSet.puzzles.length} training puzzles from ${source}; evaluating on ${held.puzzles.length} from ${heldSource}`,
      );
      await runWithProgress(o.out, config, task, o.resume === true);
    });

  cmd
    .command('text')
    .description(
      'train a text8-style character denoiser (mdlm, cadd, or sjd with a 1-D Gaussian W)',
    )
    .requiredOption('--out <dir>', 'run folder')
    .option(
      '--preset <name>',
      `process (${TEXT_PROCESSES.join(', ')})`,
      oneOf(TEXT_PROCESSES),
      'sjd',
    )
    .option('--sigma-w <s>', 'sjd: bandwidth of the 1-D Gaussian W', num(0, 1000), 1.5)
    .option(
      '--schedule <name>',
      "cadd, sjd: continuous noise schedule (rank: CANDI's rank degradation, the paper's; linear: VP linear beta)",
      oneOf(TEXT_SCHEDULES),
      'rank',
    )
    .option(
      '--size <name>',
      `model and optimiser size (${Object.keys(TEXT_SIZES).join(', ')})`,
      oneOf(Object.keys(TEXT_SIZES)),
      'cpu',
    )
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
    .option('--steps <n>', 'training steps (default: the size preset)', int(1, 10_000_000))
    .option('--resume', 'continue the run in --out from its checkpoint')
    .option('--data <dir>', 'corpus folder from `sjd data text8` (default: the embedded corpus)')
    .option('--eval-samples <n>', 'samples scored at each evaluation', int(1, 100_000), 16)
    .option('--eval-nfe <n>', 'NFE of the evaluation samples', int(1, 4096), 32)
    .action(async (o: TextTrainOpts) => {
      checkRunFolder(o.out, o.resume === true);
      const config: TextTrainConfig = o.resume
        ? (JSON.parse(readFileSync(join(o.out, 'config.json'), 'utf8')) as TextTrainConfig)
        : {
            ...textConfig(o.size, o.preset, o.seed, {
              sigmaW: o.sigmaW,
              steps: o.steps,
              schedule: o.schedule,
            }),
            data: o.data ?? EMBEDDED,
          };
      const corpus = loadCorpus(o.data ?? config.data);
      const task = new TextTask(corpus, {
        length: config.length,
        evalWindows: 64,
        evalSamples: o.evalSamples,
        evalNfe: o.evalNfe,
        evalTemperature: 1,
      });
      console.error(
        `sjd train text: ${corpus.train.length} training characters from ${corpus.source}; ${config.process.preset}${config.process.sigmaW ? ` sigma_W ${config.process.sigmaW}` : ''}`,
      );
      await runWithProgress(o.out, config, task, o.resume === true);
    });
}

/** Trains with a progress bar (loss, tokens/s, ETA) and prints the outcome; exit 130 if interrupted. */
export async function runWithProgress(
  out: string,
  config: TrainConfig,
  task: TrainTask,
  resume: boolean,
): Promise<void> {
  const bar = new cliProgress.SingleBar(
    {
      format: 'step {value}/{total} |{bar}| loss {loss} | {tps} tokens/s | ETA {eta_formatted}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 30_000,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const r = await train(out, config, task, resume, {
    progress: (step, total, info) => {
      if (!started) {
        bar.start(total, step, { loss: '-', tps: '-' });
        started = true;
      }
      bar.update(step, { loss: info.loss.toFixed(4), tps: Math.round(info.tokensPerS) });
    },
    log: (line) => {
      if (started && process.stderr.isTTY) process.stderr.write('\n');
      console.error(line);
    },
  });
  if (started) bar.stop();
  const ev = r.lastEval
    ? Object.entries(r.lastEval)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(', ')
    : 'no evaluation';
  const takeoff = task.evalMetrics.includes('board_accuracy')
    ? `; takeoff ${r.takeoff ?? 'not yet'}`
    : '';
  console.log(
    `${r.interrupted ? 'interrupted' : 'finished'} at step ${r.step}; ${ev}${takeoff}; checkpoint in ${join(out, 'checkpoint')}`,
  );
  if (r.interrupted) process.exitCode = 130;
}
