// Where a Sudoku comparison run's final held-out scores are cached beside it (comparison.ts for
// the processes, autoregressive-run.ts for the baselines): a result scripts/keep-results.sh
// keeps, so a finished run kept without its weights resumes the comparison on another machine.
export const FINAL_EVAL = 'final-eval.json';
