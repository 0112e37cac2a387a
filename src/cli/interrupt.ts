// Ctrl-C (SIGINT), SIGTERM and SIGHUP during a long command (`sjd eval sudoku`, `sjd solve --file`): the
// first is acknowledged at once on stderr and aborts the work (an AbortSignal the work checks
// between sampler steps, so it stops within seconds), after which the command keeps and reports
// what it had done, with exit status 130; a second exits at once, after `atOnce` (what must not
// be left behind, done synchronously).

/** Status of a command stopped by a signal (as a shell reports SIGINT). */
export const EXIT_INTERRUPTED = 130;

export interface Interrupt {
  signal: AbortSignal; // aborted by the first Ctrl-C or SIGTERM
  release(): void; // the work is over: the handlers go, unless a stop began (see below)
}

/** Handles Ctrl-C and SIGTERM while `what` runs (its name in the acknowledgement). */
export function interruptible(what: string, atOnce: () => void = () => {}): Interrupt {
  const ctl = new AbortController();
  const onSignal = () => {
    if (!ctl.signal.aborted) {
      console.error(`\nsjd: stopping ${what}; Ctrl-C again to stop at once`);
      ctl.abort();
      return;
    }
    atOnce();
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  return {
    signal: ctl.signal,
    // once stopping, a Ctrl-C during the wrap-up (writing what was done) still means "at once",
    // and exits with the status of an interrupted command, not by the signal's default action
    release: () => {
      if (ctl.signal.aborted) return;
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGHUP', onSignal);
    },
  };
}
