// `sjd solve --file` (issue #27): a file of puzzles solved a chunk at a time, its rows written as
// they are done, with progress and a Ctrl-C that keeps them.
import { statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import cliProgress from 'cli-progress';
import { sudoku, util } from '../index.js';
import { EXIT_NOT_SOLVED, retryCounts } from './solve-report.js';

/** Boards a chunk of `solve --file` (the batched sampler's batch). */
const FILE_CHUNK = 256;

/**
 * `solve --file` (issue #27): the file is read, solved and written a chunk at a time, so memory
 * stays flat in the number of rows; rows go to a temporary file beside --out, renamed onto it at
 * the end. Progress (bytes of the input, boards/s, ETA) on stderr; Ctrl-C (or SIGTERM) stops
 * after the chunk at hand and keeps the rows done: --out then holds them (a valid file), and the
 * exit status is 130. Chunk k is seeded seed + 256 k.
 */
export async function solveFile(
  file: string,
  out: string,
  o: { model?: string; sampler: string; nfe: number },
  settings: sudoku.SolveOptions,
  workers: number,
): Promise<void> {
  const total = statSync(file).size;
  const loaded = sudoku.loadSudokuModel(o.model);
  const how = sudoku.samplerLabel(o.sampler, settings.commit);
  const writer = new sudoku.SudokuCsvAppender(out);
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format:
        'solving |{bar}| {percentage}% of the file | {boards} boards, {solved} solved | {rate} boards/s | ETA {eta_formatted}',
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const tally = { boards: 0, solved: 0, firstSolved: 0, retried: 0, nfeSum: 0, nfeMax: 0 };
  const t0 = performance.now();
  bar.start(total, 0, { boards: 0, solved: 0, rate: '-' });
  try {
    for await (const { rows, bytes } of sudoku.streamSudokuCsv(file, FILE_CHUNK * workers)) {
      if (stop) break;
      const puzzles = rows.map((r) => r.puzzle);
      const r = await sudoku.solvePuzzles(
        loaded,
        o.model,
        puzzles,
        { ...settings, seed: settings.seed + tally.boards },
        workers,
      );
      writer.append(
        puzzles.map((p, n) => ({
          puzzle: p,
          solution: r.boards[n]!,
          status: r.problems[n]!.length === 0 ? 'solved' : sudoku.failureReason(p, r.problems[n]!),
        })),
      );
      tally.boards += puzzles.length;
      tally.solved += r.solved;
      tally.firstSolved += r.firstSolved;
      tally.retried += sudoku.retriedBoards(r.attempts);
      tally.nfeSum += r.nfe.reduce((a, b) => a + b, 0);
      tally.nfeMax = util.maxOf(r.nfe, tally.nfeMax);
      const rate = tally.boards / ((performance.now() - t0) / 1000);
      bar.update(bytes, { boards: tally.boards, solved: tally.solved, rate: rate.toFixed(1) });
      await setImmediate(); // signals and finalisers between chunks
    }
  } catch (e) {
    bar.stop();
    writer.discard();
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  bar.stop();
  writer.commit();
  const { boards, solved } = tally;
  const note = retryCounts(tally.firstSolved, boards, tally.retried);
  console.log(
    `solved ${solved} of ${boards} puzzles into ${out} (${how}; NFE per board mean ${(tally.nfeSum / Math.max(boards, 1)).toFixed(1)}, max ${tally.nfeMax} of ${o.nfe})${note}`,
  );
  if (stop) {
    console.error(`sjd: interrupted after ${boards} puzzles; ${out} holds their rows`);
    process.exitCode = 130;
  } else if (solved < boards) {
    console.error(
      `sjd: ${boards - solved} of ${boards} boards not solved; see the status column of ${out}`,
    );
    process.exitCode = EXIT_NOT_SOLVED;
  }
}
