// The arguments of a tiny Sudoku training run on the first 320 qqwing puzzles of the fixtures
// (train and held out alike), shared by the data-parallel tests.
export const QQWING_FIXTURE = new URL(
  '../../test/fixtures/sudoku/qqwing_noguess_test_first320.csv',
  import.meta.url,
).pathname;

export const tinySudokuArgs = (evalNfe = 2): string[] => [
  'train',
  'sudoku',
  '--size',
  'tiny',
  '--data',
  QQWING_FIXTURE,
  '--eval-data',
  QQWING_FIXTURE,
  '--eval-size',
  '8',
  '--eval-nfe',
  String(evalNfe),
];
