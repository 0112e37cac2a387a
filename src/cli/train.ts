// `sjd train sudoku` and `sjd train text`: train a denoiser into a run folder (config, manifest,
// checkpoints, metrics.csv, metrics.svg) with a progress bar; --resume continues exactly. Both
// take the same process flags (options.ts) and check --out before loading any data.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { image, process as P, sudoku, train as T, text } from '../index.js';
import {
  group,
  int,
  levels,
  nfe,
  num,
  oneOf,
  type ProcessFlags,
  processOptions,
  samplerOption,
  sudokuNetworkOptions,
} from './options.js';
import { joinGroup, launched, type ParallelFlags, RENDEZVOUS_S, withShards } from './parallel.js';

interface RunFlags extends ParallelFlags {
  stopAfter?: number;
  seed: number;
  steps?: number;
  batch?: number;
  lr?: number;
  warmup?: number;
  evalEvery?: number;
  resume?: boolean;
  init?: string;
}

interface SudokuFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalData?: string;
  evalSize: number;
  evalNfe: number;
  evalSampler: string;
  augment?: sudoku.Augment;
  attention?: 'dense' | 'peers' | 'typed';
  loops?: number;
  anchors: 'learned' | 'frozen';
}

interface ImageFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalData?: string;
  levels?: number;
  limit?: number;
  evalSize: number;
}

interface TextFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalSamples: number;
  evalNfe: number;
}

const runOptions = (c: Command) =>
  c
    .hook('preAction', (cmd) => {
      const o = cmd.opts() as RunFlags;
      if (o.init !== undefined && o.resume)
        throw new Error('--init starts a new run; --resume continues one: give one of them');
      if (o.init !== undefined && !existsSync(join(o.init, T.RUN_FILES.config)))
        throw new Error(`--init ${o.init}: not a model or run folder (no config.json)`);
    })
    .requiredOption('--out <dir>', 'run folder (new, empty, or with --resume the run to continue)')
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
    .option('--steps <n>', 'training steps (default: the size)', int(1, 1_000_000_000))
    .option('--batch <n>', 'sequences a step (default: the size)', int(1, 1_000_000))
    .option('--lr <x>', 'peak learning rate (default: the size)', num(1e-8, 10))
    .option(
      '--warmup <n>',
      'learning-rate warm-up steps (default: the size)',
      int(0, 1_000_000_000),
    )
    .option(
      '--eval-every <n>',
      'steps between held-out evaluations (default: the size)',
      int(1, 1_000_000_000),
    )
    .option('--resume', 'continue the run in --out from its checkpoint')
    .option(
      '--init <dir>',
      "warm start a new run from a run's EMA weights or a model folder with the same network (fresh optimiser and schedule)",
    )
    .option(
      '--stop-after <n>',
      'stop after N steps of this invocation, with a checkpoint',
      int(1, 1_000_000_000),
    )
    .option('--nproc <n>', 'data-parallel: start N local processes (ranks 0..N-1)', int(1, 1024))
    .option('--rank <r>', "data-parallel across machines: this process's rank", int(0, 1_000_000))
    .option(
      '--world-size <n>',
      'data-parallel across machines: the number of ranks',
      int(1, 1_000_000),
    )
    .option(
      '--master <addr:port>',
      "data-parallel across machines: rank 0's address and a free port",
    )
    .option(
      '--interface <name>',
      'data-parallel across machines: the network interface the ranks talk over (default: $GLOO_SOCKET_IFNAME, or loopback when --master is on it)',
    )
    .option(
      '--rendezvous-timeout <s>',
      `data-parallel: seconds a rank waits to join the group (default ${RENDEZVOUS_S})`,
      int(1, 86_400),
    )
    .option(
      '--shards <n>',
      "data-parallel: each step's batch in N parts with their own generators, shared by the ranks (default: the number of ranks)",
      int(1, 65_536),
    );

const processOf = (o: ProcessFlags & RunFlags) => ({
  batch: o.batch,
  lr: o.lr,
  warmup: o.warmup,
  evalEvery: o.evalEvery,
  size: o.size,
  process: o.process,
  blend: o.blend,
  sigmaW: o.sigmaW,
  eta: o.eta,
  schedule: o.schedule,
});

/** What a task's `sjd train` builds from its flags (and the saved config when resuming). */
interface Prepared {
  config: T.TrainConfig;
  task: T.TrainTask;
  about: string; // one line on the data and process, printed before training
}

/**
 * The body every `sjd train TASK` shares: its ranks launched or joined, the run folder checked,
 * the config resumed (passed to `prepare`) or made by it with the task, trained with progress.
 */
function trainAction<F extends RunFlags>(
  name: string,
  prepare: (o: F, saved: T.TrainConfig | undefined) => Prepared,
): (o: F) => Promise<void> {
  return async (o) => {
    if (await launched(o)) return;
    const dp = await joinGroup(o);
    if (dp.rank === 0 || o.resume) T.checkRunFolder(o.out, o.resume === true);
    const saved = o.resume ? T.readConfig(join(o.out, T.RUN_FILES.config)) : undefined;
    const { config, task, about } = prepare(o, saved);
    console.error(`sjd train ${name}: ${about}`);
    await runWithProgress(o.out, withShards(config, o, dp), task, o, dp);
  };
}

export function registerTrain(program: Command): void {
  const cmd = group(program, 'train', 'train a denoiser');
  const sudokuCmd = cmd
    .command('sudoku')
    .description('train a Sudoku denoiser (default: sjd with the constraint-graph W)');
  runOptions(
    processOptions(sudokuCmd, {
      sizes: Object.keys(sudoku.SUDOKU_SIZES),
      ...sudoku.SUDOKU_PROCESS,
    }),
  )
    .option('--data <file>', 'training puzzles, .csv or .npy (default: 20,000 generated here)')
    .option('--eval-data <file>', 'held-out puzzles (default: generated here)')
    .option('--eval-size <n>', 'held-out puzzles per evaluation', int(1, 100_000), 200)
    .option('--eval-nfe <n>', 'NFE budget of the evaluation sampler', nfe, 32);
  sudokuNetworkOptions(
    samplerOption(sudokuCmd, '--eval-sampler', 'evaluation sampler', 'confidence'),
  )
    .option(
      '--anchors <mode>',
      'learned (CDCD-normalised) or frozen random anchors',
      oneOf(['learned', 'frozen']),
      'learned',
    )
    .action(
      trainAction('sudoku', (o: SudokuFlags, saved) => {
        const config =
          saved ??
          sudoku.sudokuConfig({
            ...processOf(o),
            seed: o.seed,
            steps: o.steps,
            anchors: o.anchors,
            attention: o.attention,
            loops: o.loops,
            augment: o.augment,
          });
        const { pairs: trainSet, source } = sudoku.pairsOrGenerated(o.data, undefined, {
          n: 20_000,
          seed: 1,
        });
        const { pairs: held, source: heldSource } = sudoku.pairsOrGenerated(
          o.evalData,
          o.evalSize,
          {
            n: o.evalSize,
            seed: 2,
          },
        );
        const task = new sudoku.SudokuTask(trainSet, held, {
          evalSize: o.evalSize,
          evalNfe: o.evalNfe,
          evalSampler: o.evalSampler,
          augment: config.augment ?? 'digits',
        });
        const about = `${trainSet.puzzles.length} training puzzles from ${source}; evaluating on ${held.puzzles.length} from ${heldSource}`;
        return { config, task, about };
      }),
    );

  const textCmd = cmd
    .command('text')
    .description('train a text8-style character denoiser (default: sjd with the 1-D Gaussian W)');
  runOptions(processOptions(textCmd, { sizes: Object.keys(text.TEXT_SIZES), ...text.TEXT_PROCESS }))
    .option('--data <dir>', 'corpus folder from `sjd data text8` (default: the embedded corpus)')
    .option('--eval-samples <n>', 'samples scored at each evaluation', int(1, 100_000), 16)
    .option('--eval-nfe <n>', 'NFE of the evaluation samples', nfe, 32)
    .action(
      trainAction('text', (o: TextFlags, saved) => {
        const config = saved ?? {
          ...text.textConfig({ ...processOf(o), seed: o.seed, steps: o.steps }),
          data: o.data ?? text.EMBEDDED,
        };
        const corpus = text.loadCorpus(o.data ?? config.data);
        const task = new text.TextTask(corpus, {
          length: config.length ?? 0,
          evalWindows: 64,
          evalSamples: o.evalSamples,
          evalNfe: o.evalNfe,
          evalTemperature: 1,
        });
        const about = `${corpus.train.length} training characters from ${corpus.source}; ${P.describeProcess(config.process)}`;
        return { config, task, about };
      }),
    );
  registerTrainImage(cmd);
}

function registerTrainImage(cmd: Command): void {
  const imageCmd = cmd
    .command('image')
    .description(
      'train an image denoiser, a U-Net (default: sjd with the pixel-grid blur, sigma_B 2.5)',
    );
  runOptions(
    processOptions(imageCmd, { sizes: Object.keys(image.IMAGE_SIZES), ...image.IMAGE_PROCESS }),
  )
    .option(
      '--data <file>',
      'training images from `sjd data images` (default: Fashion-MNIST train)',
    )
    .option('--eval-data <file>', 'held-out images (default: Fashion-MNIST test)')
    .option(
      '--levels <n>',
      'Fashion-MNIST grey levels, a power of two from 2 to 256 (default 256)',
      levels,
    )
    .option('--limit <n>', 'only the first N training images', int(1, 100_000_000))
    .option('--eval-size <n>', 'held-out images for the evaluation loss', int(1, 100_000), 256)
    .action(
      trainAction('image', (o: ImageFlags, saved) => {
        const lv = o.levels ?? (o.data === undefined ? saved?.image?.levels : undefined);
        const train = image.imagesOrFashion(o.data, 'train', { levels: lv, limit: o.limit });
        const held = image.imagesOrFashion(o.evalData, 'test', {
          levels: o.evalData === undefined ? train.set.levels : undefined,
          limit: o.evalSize,
        });
        const config =
          saved ??
          image.imageConfig(image.geometryOf(train.set), {
            ...processOf(o),
            seed: o.seed,
            steps: o.steps,
          });
        if (!config.image)
          throw new Error(`${o.out}: not an image run (no image geometry in its config)`);
        image.checkGeometry(train.set, config.image, train.source);
        const task = new image.ImageTask(train.set, held.set, { evalSize: o.evalSize });
        const about = `${train.set.n} training images from ${train.source} (${image.describeGeometry(config.image)}); evaluating on ${held.set.n} from ${held.source}; ${P.describeProcess(config.process)}`;
        return { config, task, about };
      }),
    );
}

/** Trains with a progress bar (loss, tokens/s, ETA) and prints the outcome; exit 130 if interrupted. */
export async function runWithProgress(
  out: string,
  config: T.TrainConfig,
  task: T.TrainTask,
  o: RunFlags,
  dp: T.DataParallel = T.SINGLE,
): Promise<void> {
  const resume = o.resume === true;
  // (--init with --resume is refused before this, by runOptions' hook)
  if (o.init !== undefined && !resume) config = { ...config, init: { from: o.init } };
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
  const lead = dp.rank === 0;
  const hooks: T.TrainHooks = { stopAfter: o.stopAfter };
  const r = await T.train(
    out,
    config,
    task,
    resume,
    lead
      ? {
          ...hooks,
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
        }
      : hooks,
    dp,
  );
  dp.group?.destroy();
  if (started) bar.stop();
  if (!lead) {
    if (r.interrupted) process.exitCode = 130;
    return;
  }
  const ev = r.lastEval
    ? Object.entries(r.lastEval)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(', ')
    : 'no evaluation';
  const takeoff = task.takeoffMetric ? `; takeoff ${r.takeoff ?? 'not yet'}` : '';
  console.log(
    `${r.interrupted ? 'interrupted' : 'finished'} at step ${r.step}; ${ev}${takeoff}; checkpoint in ${join(out, T.RUN_FILES.checkpoint)}`,
  );
  if (r.interrupted) process.exitCode = 130;
}
