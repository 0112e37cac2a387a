// sjd in a browser (`sjd/web`; docs/library.md): the same samplers and models as in Node, on the
// TypeScript backend (src/torch/js/), with models loaded from URLs or bytes rather than folders:
// Sudoku solved at the defaults (the adaptive sampler under the rules, its undos and retries),
// text sampled with prompts and infilling, images sampled. scripts/build-web.mjs bundles this
// file for browsers (web/dist/sjd-web.js), where Node's modules are stand-ins that nothing on
// these paths calls.
import type { Network } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import type { TrajectoryStep } from '../sampling/index.js';
import { TASK_SERVINGS } from '../tasks/serving.js';
import { type Board, parseBoard } from '../tasks/sudoku/puzzle/board.js';
import type { SolveResult } from '../tasks/sudoku/retry.js';
import { solveSudoku as solveBoards } from '../tasks/sudoku/solve.js';
import { defaultSudokuNfe, sudokuSampling } from '../tasks/sudoku/solve-defaults.js';
import { backend } from '../torch/index.js';
import type { TrainConfig } from '../train/config.js';
import { MODEL_FILES } from '../train/run-folder.js';

export { sampleImages } from '../tasks/image/sample.js';
export { sampleText } from '../tasks/text/sample.js';

export type WebTask = 'sudoku' | 'text' | 'image';

/** A model in a browser: its network, process and saved config. */
export interface WebModel {
  task: WebTask;
  model: Network;
  process: SJDProcess;
  config: TrainConfig;
}

/**
 * A model from a model folder's two files: its config.json text and its model.safetensors
 * bytes, as the task serves it (tasks/serving.ts). `source` names them in errors.
 */
export function modelFromBytes(
  task: WebTask,
  configText: string,
  weights: Uint8Array,
  source = `the ${task} model`,
): WebModel {
  const r = TASK_SERVINGS[task].fromFiles!(configText, weights, source);
  return { task, model: r.model, process: r.process, config: r.config };
}

/**
 * A model from the URL of its folder (config.json and model.safetensors fetched beside it),
 * relative to the page; outside a browser, fetch the two files and use modelFromBytes.
 */
export async function loadModel(task: WebTask, folderUrl: string): Promise<WebModel> {
  const base = folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`;
  const get = async (name: string) => {
    const res = await fetch(new URL(name, new URL(base, globalThis.location?.href)));
    if (!res.ok) throw new Error(`${base}${name}: ${res.status} ${res.statusText}`);
    return res;
  };
  const [config, weights] = await Promise.all([
    get(MODEL_FILES.config).then((r) => r.text()),
    get(MODEL_FILES.weights).then(async (r) => new Uint8Array(await r.arrayBuffer())),
  ]);
  return modelFromBytes(task, config, weights, base);
}

export interface WebSolveOptions {
  seed?: number;
  /**
   * the first board's sampler steps, handed over in order once the solve is done (what a page
   * replays to show the cells sticking)
   */
  onStep?: (step: TrajectoryStep) => void;
}

/**
 * Puzzles (81 digits, 0 or . for a blank) solved at sjd's defaults: the boards (81 digits each),
 * the classifier passes each took and whether each obeys the rules.
 */
export function solveSudoku(
  m: WebModel,
  puzzles: string[],
  o: WebSolveOptions = {},
): { boards: string[]; nfe: number[]; result: SolveResult } {
  if (m.task !== 'sudoku') throw new Error(`solveSudoku: a ${m.task} model, not a Sudoku one`);
  const boards: Board[] = puzzles.map((p) => parseBoard(p));
  const { sampler, rules } = sudokuSampling({});
  const result = solveBoards(m.model, m.process, boards, {
    sampler,
    rules,
    nfe: defaultSudokuNfe(sampler),
    seed: o.seed ?? 0,
    record: o.onStep !== undefined,
  });
  for (const step of result.trajectory ?? []) o.onStep?.(step);
  return { boards: result.boards.map((b) => Array.from(b).join('')), nfe: result.nfe, result };
}

/** Which backend runs (the TypeScript one in a browser) and why. */
export const backendInfo = () => backend();
