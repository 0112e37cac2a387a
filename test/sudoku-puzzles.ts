// Puzzles the Sudoku tests share (sjd solve's and the server's), with what the shipped model
// (models/sudoku) does on them.

/**
 * A no-guess puzzle (one solution; the 729th of qqwing_noguess_test.csv) that the shipped model
 * alone (--no-rules) gets wrong (with the rules, the default sampler solves it on the first
 * attempt at seeds 0, 1 and 2): at one attempt it repeats digits at seeds 0, 1 and 2, at 1 and 2
 * threads; at seed 0 its retries within 128 NFE (4 attempts) fail too, and the fourth attempt
 * within 300 NFE (142 used) solves it. (The puzzles used before, 100003050090600004004050173...
 * (the 127th), 005100607120030000009024000000000000000002370200000165003091050900006000006000710
 * and the 17-clue 000000010400000000020000000000050407008000300001090000300400200050100000000806000,
 * are solved by the models shipped since.)
 */
export const HARD =
  '050000026800902047420000000000008002030060050000000000080007000003050800005206090';

/** An easy puzzle the shipped model solves (in one step of the adaptive sampler). */
export const EASY =
  '530070000600195000098000060800060003400803001700020006060000280000419005000080079';
export const EASY_SOLUTION =
  '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
