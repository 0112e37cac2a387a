// `sjd solve --file`: a file of puzzles solved a chunk at a time, its rows written as
// they are done, with progress (a bar on a terminal, a plain line every few seconds otherwise)
// and a Ctrl-C that is acknowledged at once, stops within a sampler step and keeps the rows done.

import { statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { sudoku, util } from '../../index.js';
import * as lab from '../../lab/index.js';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import { EXIT_INTERRUPTED, interruptible } from '../interrupt.js';
import { cliProgress, formatTime, heartbeat } from '../progress.js';
import { loadModelOf, modelSource } from './sampler-flags.js';
import { EXIT_NOT_SOLVED, retryCounts } from './solve-report.js';

/** Boards `solve --file` reads at a time (for each worker): its memory stays flat in the file's rows. */
const FILE_CHUNK = 256;

/** The size of the puzzle file, or a one-line reason it is not one. */
function inputSize(file: string): number {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(`--file ${file}: ${missing ? 'no such file' : util.fsReason(e)}`);
  }
  if (st.isDirectory()) throw new Error(`--file ${file} is a folder, not a puzzle file`);
  return st.size;
}

interface Tally {
  boards: number;
  solved: number;
  firstSolved: number;
  retried: number;
  nfeSum: number;
  nfeMax: number;
}

/**
 * Progress on stderr, told the bytes of the file read and the boards settled as each settles:
 * cli-progress's bar on a terminal, else a plain line every few seconds (heartbeat).
 */
function progress(total: number, tally: Tally, t0: number) {
  let boards = 0;
  const rate = () => boards / Math.max((performance.now() - t0) / 1000, 1e-9);
  let bytes = 0;
  if (process.stderr.isTTY) {
    const bar = new (cliProgress().SingleBar)(
      {
        stream: process.stderr,
        format:
          'solving |{bar}| {percentage}% of the file | {boards} boards, {solved} solved | {rate} boards/s | ETA {eta_formatted}',
        etaBuffer: 20,
        formatTime,
      },
      cliProgress().Presets.shades_classic,
    );
    bar.start(total, 0, { boards: 0, solved: 0, rate: '-' });
    return {
      update: (b: number, settled: number) => {
        boards = settled;
        bar.update(Math.round(b), { boards, solved: tally.solved, rate: rate().toFixed(1) });
      },
      stop: () => bar.stop(),
    };
  }
  const beat = heartbeat('sjd solve', (n) => {
    const pct = total > 0 ? ((100 * bytes) / total).toFixed(0) : '100';
    return `${n} boards done (${pct}% of the file), ${tally.solved} solved, ${rate().toFixed(1)} boards/s`;
  });
  return {
    update: (b: number, settled: number) => {
      bytes = b;
      boards = settled;
      beat.update(settled);
    },
    stop: () => beat.stop(),
  };
}

/** A chunk's boards counted in the tally (`r`: its solve, `n`: the boards done). */
function count(tally: Tally, r: lab.sudoku.PartialSolve, n: number): void {
  tally.boards += n;
  tally.solved += r.solved;
  tally.firstSolved += r.firstSolved;
  tally.retried += sudoku.retriedBoards(r.attempts);
  tally.nfeSum += r.nfe.reduce((a, b) => a + b, 0);
  tally.nfeMax = util.maxOf(r.nfe, tally.nfeMax);
}

/** The closing line, and the exit status of a stopped solve or of boards not solved. */
function finish(out: string, how: string, nfe: number, tally: Tally, stopped: boolean): void {
  const { boards, solved } = tally;
  const note = retryCounts(tally.firstSolved, boards, tally.retried);
  console.log(
    `solved ${solved} of ${boards} puzzles into ${out} (${how}; NFE per board mean ${(tally.nfeSum / Math.max(boards, 1)).toFixed(1)}, max ${tally.nfeMax} of ${nfe})${note}`,
  );
  if (stopped) {
    console.error(
      `sjd: interrupted after ${boards} ${boards === 1 ? 'puzzle' : 'puzzles'}; ${out} holds their rows`,
    );
    process.exitCode = EXIT_INTERRUPTED;
  } else if (solved < boards) {
    console.error(
      `sjd: ${boards - solved} of ${boards} boards not solved; see the status column of ${out}`,
    );
    process.exitCode = EXIT_NOT_SOLVED;
  }
}

/**
 * `solve --file`: the file is read, solved and written a chunk at a time, so memory
 * stays flat in the number of rows; rows go to a temporary file beside --out, renamed onto it at
 * the end (removed on any failure). Progress on stderr. Ctrl-C (or SIGTERM) is acknowledged at
 * once and stops the solve within a sampler step: --out then holds the rows done before it, in
 * file order (a valid file; the boards after the first unfinished one are left out), exit status
 * 130; a second Ctrl-C writes them and exits at once. Board n of the file is keyed by (seed, n),
 * so it gets the answer `sjd eval sudoku` gives it.
 */
export async function solveFile(
  file: string,
  out: string,
  o: { model?: string; precision?: PrecisionSetting; sampler: SamplerName; nfe: number },
  settings: sudoku.SolveOptions,
  workers: number,
): Promise<void> {
  const total = inputSize(file);
  const loaded = loadModelOf(o);
  const writer = new sudoku.SudokuCsvAppender(out);
  const tally: Tally = { boards: 0, solved: 0, firstSolved: 0, retried: 0, nfeSum: 0, nfeMax: 0 };
  const stop = interruptible('the solve', () => {
    writer.commit();
    console.error(`sjd: stopped at once after ${tally.boards} puzzles; ${out} holds their rows`);
  });
  const shown = progress(total, tally, performance.now());
  let read = 0; // bytes of the chunks before this one
  try {
    for await (const { rows, bytes } of sudoku.streamSudokuCsv(file, FILE_CHUNK * workers)) {
      if (stop.signal.aborted) break;
      const all = rows.map((r) => r.puzzle);
      const part = { start: tally.boards, puzzles: all }; // board n of the file keyed by (seed, n)
      // within a chunk, its bytes in proportion to its boards settled
      const settled = (done: number) =>
        shown.update(read + ((bytes - read) * done) / all.length, tally.boards + done);
      const r = await lab.sudoku.solvePuzzles(
        loaded,
        modelSource(o),
        part,
        settings,
        workers,
        stop.signal,
        settled,
      );
      const puzzles = all.slice(0, r.done); // all of them unless stopped
      writer.append(
        puzzles.map((p, n) => ({
          puzzle: p,
          solution: r.boards[n]!,
          status: r.problems[n]!.length === 0 ? 'solved' : sudoku.failureReason(p, r.problems[n]!),
        })),
      );
      count(tally, r, puzzles.length);
      shown.update(bytes, tally.boards);
      read = bytes;
      await setImmediate(); // signals and finalisers between chunks
    }
    if (tally.boards === 0 && !stop.signal.aborted) throw new Error(`${file} holds no puzzles`);
  } catch (e) {
    shown.stop();
    stop.release();
    writer.discard();
    throw e;
  }
  shown.stop();
  writer.commit(); // a second Ctrl-C from here on finds the rows already in place
  finish(out, sudoku.samplerLabel(o.sampler, settings.commit), o.nfe, tally, stop.signal.aborted);
  stop.release();
}
