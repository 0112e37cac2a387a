// The constants of `sjd serve`'s API that its answers show, written once for the server and its
// page: the task names, the grids a solve may name, and the request limits. The limits are the
// server's own (a request costs at most LIMITS.nfe.max classifier passes), narrower than the
// command line's; /api/models sends them and schemas.ts checks requests against them. No imports,
// so api-types.ts takes its types from here and the page's build reads them without the server's.

/** The tasks the page has a tab for: the shipped ones (tasks/registry.ts's TASK_SPECS, tested equal). */
export const TASKS = ['sudoku', 'text', 'image'] as const;

/** The time grids of a solve (`sjd solve --grid`). */
export const GRIDS = ['cosine', 'uniform'] as const;

export const LIMITS = {
  nfe: { min: 1, max: 1024 }, // the Sudoku solve's default cap (DEFAULT_ADAPTIVE_NFE) included
  temperature: { min: 1e-3, max: 100 },
  seed: { min: 0, max: 2 ** 31 - 1 },
  samples: { min: 1, max: 4 }, // text and images a request
  retries: { min: 0, max: 32 }, // a solve's (DEFAULT_RETRIES; the NFE budget bounds them all together)
  bodyBytes: 16 * 1024,
} as const;
