// One generated puzzle of a chosen difficulty class (difficulty.ts: singles, beyond-singles,
// guessing), for `sjd serve`'s "generate" button: the generator (generator.ts) is run with the
// strategies the class allows (singles only; all; or guessing, i.e. minimal puzzles with a unique
// solution) on a sequence of seeds derived from `seed` until the logical solver puts a puzzle in
// the class. Deterministic for (class, seed); bounded in tries.
import { classifyPuzzles, type DifficultyClass } from './difficulty.js';
import { type GeneratedPuzzle, type GenerateOptions, generatePuzzles } from './generator.js';

/** Puzzles tried before giving up (each class has more than 1 in 5 of its tries). */
export const CLASS_TRIES = 64;

const GENERATE: Record<DifficultyClass, Omit<GenerateOptions, 'seed'>> = {
  singles: { allowed: ['nakedSingle', 'hiddenSingle'] },
  'beyond-singles': {},
  guessing: { guessing: true },
};

export function generateOfClass(difficulty: DifficultyClass, seed: number): GeneratedPuzzle {
  for (let k = 0; k < CLASS_TRIES; k++) {
    const [g] = generatePuzzles(1, {
      ...GENERATE[difficulty],
      seed: (seed * CLASS_TRIES + k) % 2 ** 32,
    });
    if (classifyPuzzles([g!.puzzle])[0] === difficulty) return g!;
  }
  throw new Error(`no ${difficulty} puzzle in ${CLASS_TRIES} tries from seed ${seed}`);
}
