// The Sudoku panel (sec:exp-sudoku): type or paste a puzzle (81 digits, 0 or . for blanks; spaces
// and line breaks are ignored) or generate one of a difficulty class, then watch the model solve it
// step by step: clues marked, committed cells with their digit, active cells shaded by the
// classifier's confidence (or |y|) with its current argmax shown faintly; the verdict names the
// rows, columns and boxes that break. The steps are drawn one every PACE_MS, so cells are seen
// sticking; on load the page plays a generated puzzle (play); Download saves the puzzle and the
// answer.
import {
  type GenerateAnswer,
  getJson,
  type ModelsInfo,
  type ServedTask,
  type SolveAnswer,
  type StepEvent,
} from './api.js';
import { RunPanel } from './run-panel.js';
import { fillSettings, formQuery } from './settings.js';

const boxOf = (i: number) => 3 * Math.floor(i / 27) + Math.floor((i % 9) / 3);

/** Milliseconds between drawn steps: a solve of 20 steps takes 2 s to watch. */
const PACE_MS = 100;

/** A board of 81 digits (0 blank) as nine rows of three boxes. */
const grid = (b: string) =>
  Array.from({ length: 9 }, (_, r) => b.slice(9 * r, 9 * r + 9).replace(/(...)(?!$)/g, '$1 ')).join(
    '\n',
  );

/** The Sudoku panel; `play()` generates a puzzle and solves it, as the page does on load. */
export function setupSudoku(
  section: HTMLElement,
  info: ServedTask,
  models: ModelsInfo,
): { play(): Promise<void> } {
  const form = section.querySelector<HTMLFormElement>('form')!;
  const input = section.querySelector<HTMLInputElement>('#puzzle')!;
  const difficulty = section.querySelector<HTMLSelectElement>('#difficulty')!;
  const shade = section.querySelector<HTMLSelectElement>('#shade')!;
  const verdict = section.querySelector<HTMLElement>('.verdict')!;
  const board = section.querySelector<HTMLElement>('#board')!;
  const cells = Array.from({ length: 81 }, () => {
    const c = document.createElement('span');
    c.className = 'cell';
    board.append(c);
    return c;
  });
  for (const d of models.difficulties) difficulty.add(new Option(d, d));
  fillSettings(section.querySelector('fieldset')!, info, models);
  let clues = '0'.repeat(81);

  const draw = (s: StepEvent) => {
    const ys = s.y_norm.filter((_, i) => s.tokens[i]! < 0);
    const yMax = Math.max(...ys, 1e-9);
    cells.forEach((c, i) => {
      c.className = 'cell';
      c.style.background = '';
      if (clues[i] !== '0') {
        c.classList.add('clue');
        c.textContent = clues[i]!;
      } else if (s.tokens[i]! >= 0) {
        c.classList.add('committed');
        c.textContent = String(s.tokens[i]! + 1);
      } else {
        c.classList.add('active');
        const level = shade.value === 'ynorm' ? s.y_norm[i]! / yMax : s.confidence[i]!;
        c.style.background = `rgba(31, 95, 191, ${(0.08 + 0.5 * level).toFixed(3)})`;
        const guess = document.createElement('span');
        guess.className = 'guess';
        guess.textContent = s.argmax[i]! >= 0 ? String(s.argmax[i]! + 1) : '';
        c.replaceChildren(guess);
      }
    });
  };

  let answer: SolveAnswer | null = null;
  const done = (r: SolveAnswer) => {
    answer = r;
    verdict.className = `verdict ${r.solved ? 'solved' : 'failed'}`;
    const spent = `${r.nfe_used} NFE${r.attempts > 1 ? ` in ${r.attempts} attempts` : ''}`;
    verdict.textContent = r.solved ? `solved (${spent})` : `not solved: ${r.reason} (${spent})`;
    cells.forEach((c, i) => {
      const broken =
        r.broken.rows.includes(Math.floor(i / 9)) ||
        r.broken.columns.includes(i % 9) ||
        r.broken.boxes.includes(boxOf(i));
      c.classList.toggle('broken', broken);
    });
  };

  const result = async () => {
    const board = answer?.board ?? '';
    const text = `puzzle\n${grid(clues)}\n\nanswer (${verdict.textContent})\n${grid(board)}\n\n${clues}\n${board}\n`;
    return { name: 'sudoku.txt', blob: new Blob([text], { type: 'text/plain' }) };
  };
  const panel = new RunPanel<SolveAnswer>(section, { draw, done, result }, PACE_MS);
  shade.addEventListener('change', () =>
    panel.show(Number(section.querySelector<HTMLInputElement>('.slider')!.value)),
  );

  const generate = async () => {
    panel.error('');
    try {
      const g = await getJson<GenerateAnswer>(
        `/api/sudoku/generate?difficulty=${encodeURIComponent(difficulty.value)}`,
      );
      input.value = g.puzzle;
    } catch (e) {
      panel.error((e as Error).message);
    }
  };
  section.querySelector('#generate')!.addEventListener('click', generate);

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const puzzle = input.value.replace(/\s+/g, '');
    clues = puzzle.replace(/\./g, '0').padEnd(81, '0').slice(0, 81);
    verdict.className = 'verdict';
    verdict.textContent = '';
    for (const c of cells) c.classList.remove('broken');
    void panel.run(`/api/sudoku/stream?${formQuery(form, { puzzle })}`);
  });
  return {
    // the hardest class: a puzzle that needs guessing takes a dozen steps or more to stick
    play: async () => {
      difficulty.value = models.difficulties.at(-1)!;
      await generate();
      if (input.value) form.requestSubmit();
    },
  };
}
