// The 9x9 Sudoku grid model: a board is a Uint8Array(81), row-major, values 0..9 (0 = blank).
// Cell geometry (row, column, box, the 27 units, each cell's 20 peers), 81-character string
// I/O, the validity checks shared by the readers, the solver and the generator, and a text
// rendering for the CLI. Rows, columns and boxes are 0-based in code and 1-based in messages.

export type Board = Uint8Array;

export const CELLS = 81;

export const rowOf = (i: number): number => (i / 9) | 0;
export const colOf = (i: number): number => i % 9;
export const boxOf = (i: number): number => 3 * ((i / 27) | 0) + (((i % 9) / 3) | 0);

/** The 27 units: rows 0..8, then columns 9..17, then boxes 18..26; each lists its 9 cells. */
export const UNITS: readonly Uint8Array[] = (() => {
  const units = Array.from({ length: 27 }, () => [] as number[]);
  for (let i = 0; i < CELLS; i++) {
    units[rowOf(i)]!.push(i);
    units[9 + colOf(i)]!.push(i);
    units[18 + boxOf(i)]!.push(i);
  }
  return units.map((u) => Uint8Array.from(u));
})();

/** 'row 3', 'column 5', 'box 2' (1-based; boxes numbered row-major), by unit index. */
export const UNIT_NAMES: readonly string[] = Array.from(
  { length: 27 },
  (_, u) => `${['row', 'column', 'box'][(u / 9) | 0]} ${(u % 9) + 1}`,
);

/** For each cell, the 20 other cells that share its row, column or box (ascending). */
export const PEERS: readonly Uint8Array[] = Array.from({ length: CELLS }, (_, i) => {
  const peers: number[] = [];
  for (let j = 0; j < CELLS; j++) {
    if (j !== i && (rowOf(j) === rowOf(i) || colOf(j) === colOf(i) || boxOf(j) === boxOf(i)))
      peers.push(j);
  }
  return Uint8Array.from(peers);
});

/** 'row 2 column 5' (1-based). */
export const cellName = (i: number): string => `row ${rowOf(i) + 1} column ${colOf(i) + 1}`;

/** A character as messages show it: 'x', or U+0009 for control and non-ASCII characters. */
export const showChar = (ch: string): string =>
  /^[\x21-\x7e]$/.test(ch)
    ? `'${ch}'`
    : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Parses an 81-character string ('1'..'9' digits, '0' or '.' blank). `what` names the grid in
 * the one-line error: "puzzle has 80 characters, expected 81",
 * "puzzle has character 'x' at position 12" (1-based position).
 */
export function parseBoard(s: string, what = 'board'): Board {
  if (s.length !== CELLS) throw new Error(`${what} has ${s.length} characters, expected ${CELLS}`);
  const b = new Uint8Array(CELLS);
  for (let i = 0; i < CELLS; i++) {
    const c = s.charCodeAt(i);
    if (c >= 49 && c <= 57) b[i] = c - 48;
    else if (c !== 48 && c !== 46)
      throw new Error(
        `${what} has character ${showChar(String.fromCodePoint(s.codePointAt(i)!))} at position ${i + 1}`,
      );
  }
  return b;
}

/** The 81-character string of a board, blanks written as `blank` ('0' by default). */
export function formatBoard(b: Board, blank = '0'): string {
  let s = '';
  for (let i = 0; i < CELLS; i++) s += b[i] ? String.fromCharCode(48 + b[i]!) : blank;
  return s;
}

export interface Repeat {
  unit: number; // index into UNITS / UNIT_NAMES
  digit: number; // 1..9
}

/** The first unit (rows, then columns, then boxes) in which a digit appears twice, or null. */
export function findRepeat(b: Board): Repeat | null {
  for (let u = 0; u < 27; u++) {
    let seen = 0;
    for (const i of UNITS[u]!) {
      const v = b[i]!;
      if (v === 0) continue;
      const bit = 1 << v;
      if (seen & bit) return { unit: u, digit: v };
      seen |= bit;
    }
  }
  return null;
}

/** The digits (ascending) that appear more than once in unit `u` of `b`. */
export function unitRepeats(b: Board, u: number): number[] {
  let seen = 0;
  let twice = 0;
  for (const i of UNITS[u]!) {
    const v = b[i]!;
    if (v === 0) continue;
    twice |= seen & (1 << v);
    seen |= 1 << v;
  }
  const out: number[] = [];
  for (let d = 1; d <= 9; d++) if (twice & (1 << d)) out.push(d);
  return out;
}

/** Unit `u` of `b` holds each digit 1..9 once. */
export function unitIsPermutation(b: Board, u: number): boolean {
  let seen = 0;
  for (const i of UNITS[u]!) seen |= 1 << b[i]!;
  return seen === 0b1111111110;
}

/** True when some digit appears twice in a row, column or box. */
export const hasContradiction = (puzzle: Board): boolean => findRepeat(puzzle) !== null;

/** Why `b` is not a complete valid grid ("row 4 repeats 3", "row 2 column 5 is blank"), or null. */
export function solutionProblem(b: Board): string | null {
  for (let i = 0; i < CELLS; i++) {
    const v = b[i]!;
    if (!(v >= 1 && v <= 9)) return `${cellName(i)} is ${v === 0 ? 'blank' : `${v}`}`;
  }
  const rep = findRepeat(b);
  return rep && `${UNIT_NAMES[rep.unit]} repeats ${rep.digit}`;
}

/** Every row, column and box is a permutation of 1..9. */
export const isValidSolution = (b: Board): boolean => solutionProblem(b) === null;

/** The first clue cell of `puzzle` whose digit `solution` changes, or -1. */
export function firstLostClue(puzzle: Board, solution: Board): number {
  for (let i = 0; i < CELLS; i++) if (puzzle[i] !== 0 && puzzle[i] !== solution[i]) return i;
  return -1;
}

/** The solution agrees with every clue of the puzzle. */
export const keepsClues = (puzzle: Board, solution: Board): boolean =>
  firstLostClue(puzzle, solution) < 0;

export interface RenderOptions {
  /** When given, cells that are clues here are shown as [5], the others as ' 5 ' (wider grid). */
  clues?: Board;
}

/**
 * A 9x9 text grid with box separators; blanks are '.'. Without clues, cells are ' 5':
 *   5 3 . | . 7 . | . . .
 *  -------+-------+-------
 */
export function renderBoard(b: Board, opts: RenderOptions = {}): string {
  const { clues } = opts;
  const cell = (i: number): string => {
    const d = b[i] ? String(b[i]) : '.';
    if (!clues) return ` ${d}`;
    return clues[i] ? `[${d}]` : ` ${d} `;
  };
  const rule = Array(3)
    .fill('-'.repeat(clues ? 9 : 7))
    .join('+');
  const lines: string[] = [];
  for (let r = 0; r < 9; r++) {
    if (r === 3 || r === 6) lines.push(rule);
    const boxes = [0, 3, 6].map((c0) => {
      let s = '';
      for (let c = c0; c < c0 + 3; c++) s += cell(9 * r + c);
      return clues ? s : `${s} `;
    });
    lines.push(boxes.join('|').trimEnd());
  }
  return lines.join('\n');
}
