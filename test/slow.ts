// The few tests that take tens of seconds each (the samplers' exact-oracle runs at 20,000 samples,
// the DHM identity by Monte Carlo, the 5,000-step memory soak) are skipped by `npm run test:fast`
// (SJD_TEST_FAST=1) for quick iterations; `npm test` and CI run every test but one (the last
// below).
export const slow: string | false =
  process.env.SJD_TEST_FAST === '1' ? 'slow: skipped by npm run test:fast' : false;

// What does not depend on the tensor backend (argument and file handling, the worker pool's
// plumbing) runs once, on the addon: js-suite.test.ts reruns files on the TypeScript backend with
// SJD_TEST_BACKEND_ONLY=1, which skips it there.
export const backendIndependent: string | false =
  process.env.SJD_TEST_BACKEND_ONLY === '1' ? 'backend-independent: run on the addon' : false;

// Every command line of the docs run as written (doc-runs.test.ts) takes some 20 minutes, more
// than CI has beside the rest: `npm run test:docs` (SJD_TEST_DOC_RUNS=1) runs it; `npm test`
// parses each of those lines instead (doc-commands.test.ts).
export const docRuns: string | false =
  process.env.SJD_TEST_DOC_RUNS === '1' ? false : "the docs' lines run by npm run test:docs";
