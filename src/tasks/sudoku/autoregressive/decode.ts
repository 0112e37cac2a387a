// Greedy decoding of the autoregressive baselines (tab:sudoku_schedule_ablations; Shah et al.
// 2024): cell by cell in the board's order, each blank set to the argmax of the network's digits
// given the cells before it, each clue copied. One network pass per position that some board of
// the batch predicts (no cache: the whole prefix is read again, as a plain decoder without
// key-value caching does); positions where every board holds a clue (the solver order's first)
// take no pass. The boards are then scored as the comparison scores (metrics.ts) and checked by
// the rules (puzzle/check.ts answerProblems).
import type { CausalDecoder } from '../../../model/causal-decoder.js';
import { atPrecision, type Precision } from '../../../model/precision.js';
import { noGrad, tensor, tidy } from '../../../torch/index.js';
import { pushAll } from '../../../util/fold.js';
import { type Board, CELLS } from '../puzzle/board.js';
import { ORDERS, type OrderName } from './order.js';
import { START_DIGIT } from './sequence.js';

/** Boards decoded together (the evaluation's memory bound). */
export const DECODE_BATCH = 250;

export interface Decoded {
  boards: Board[]; // the answers, every cell filled
  passes: number; // network passes, all batches together
}

/** The answers of `model` to `puzzles`, each written greedily in its `order`. */
export function decodeGreedy(
  model: CausalDecoder,
  puzzles: readonly Board[],
  order: OrderName,
  batch = DECODE_BATCH,
  precision?: Precision,
): Decoded {
  const boards: Board[] = [];
  let passes = 0;
  for (let at = 0; at < puzzles.length; at += batch) {
    const part = puzzles.slice(at, at + batch);
    const d = decodeBatch(model, part, part.map(ORDERS[order]), precision);
    pushAll(boards, d.boards);
    passes += d.passes;
  }
  return { boards, passes };
}

function decodeBatch(
  model: CausalDecoder,
  puzzles: readonly Board[],
  orders: number[][],
  precision?: Precision,
): Decoded {
  const B = puzzles.length;
  const boards = puzzles.map((p) => p.slice());
  const order = new Float64Array(B * CELLS); // [B, 81]
  const previous = new Float64Array(B * CELLS); // [B, 81]; positions past k are never read
  orders.forEach((o, b) => {
    order.set(o, b * CELLS);
    previous[b * CELLS] = START_DIGIT;
  });
  const orderT = tensor(order, [B, CELLS], 'float64').to('int64');
  let passes = 0;
  for (let k = 0; k < CELLS; k++) {
    const blanks = orders.filter((o, b) => puzzles[b]![o[k]!] === 0).length;
    let digits: number[] = []; // [B] argmax digit 0..8 at position k
    if (blanks > 0) {
      passes++;
      digits = tidy(() =>
        noGrad(() => {
          const prev = tensor(previous, [B, CELLS], 'float64').to('int64');
          const logits = atPrecision(precision, () => model.forward(orderT, prev)); // [B, 81, 9]
          return logits.select(1, k).argmax(-1).toArray(); // [B]
        }),
      );
    }
    orders.forEach((o, b) => {
      const cell = o[k]!;
      if (puzzles[b]![cell] === 0) boards[b]![cell] = digits[b]! + 1;
      if (k + 1 < CELLS) previous[b * CELLS + k + 1] = boards[b]![cell]! - 1;
    });
  }
  orderT.dispose();
  return { boards, passes };
}
