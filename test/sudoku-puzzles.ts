// Puzzles the Sudoku tests share (sjd solve's and the server's), with what the shipped model
// (models/sudoku) does on them.

/**
 * A puzzle that needs search (qqwing's Expert class, 24 nodes of a complete search with singles
 * propagation: the first of the hard20 test set that training/sudoku-h1/sets.sh makes), chosen
 * as one the shipped model alone (--no-rules) gets wrong: at one attempt it repeats digits at
 * seeds 0, 1 and 2; at seed 0 its retries within 128 NFE (4 attempts) fail too, and the fifth
 * attempt within 300 NFE solves it; with the rules, the default sampler solves it on the first
 * attempt at seeds 0, 1 and 2. (The puzzle used before, the 729th of qqwing_noguess_test.csv,
 * 050000026800902047420000000000008002030060050000000000080007000003050800005206090, lost those
 * properties when the sampler's state at eta = 1 went to float32 draws: the same law,
 * another stream.)
 */
export const HARD =
  '000500782109200006500400000080005000090002300003000070000000400860000000000639007';

/**
 * A puzzle the shipped model solves in several steps of the adaptive samplers and of the
 * confidence policy (EASY takes it one step).
 */
export const MEDIUM =
  '002000000000700000403006001300000000701300805000800004060008302004030150200510406';

/** An easy puzzle the shipped model solves (in one step of the adaptive sampler). */
export const EASY =
  '530070000600195000098000060800060003400803001700020006060000280000419005000080079';
export const EASY_SOLUTION =
  '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
