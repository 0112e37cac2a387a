// The few tests that take tens of seconds each (the samplers' exact-oracle runs at 20,000 samples,
// the DHM identity by Monte Carlo, the 5,000-step memory soak) are skipped by `npm run test:fast`
// (SJD_TEST_FAST=1) for quick iterations; `npm test` and CI run every test.
export const slow: string | false =
  process.env.SJD_TEST_FAST === '1' ? 'slow: skipped by npm run test:fast' : false;
