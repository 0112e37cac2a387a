// A report at most every few seconds: long synchronous work (a comparison's scoring, a solve)
// calls it as often as it likes, and only the calls a few seconds apart get through.

/** Seconds between the lines of a long piece of work. */
export const REPORT_EVERY_S = 5;

/** `fn` let through at most once every `seconds` (the first call waits the interval too). */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  seconds = REPORT_EVERY_S,
): (...args: A) => void {
  let last = performance.now();
  return (...args) => {
    const now = performance.now();
    if (now - last < seconds * 1000) return;
    last = now;
    fn(...args);
  };
}
