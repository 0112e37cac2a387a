// The deadlines of `sjd serve`: a client must take each event of its stream within `writeMs`
// (else it is dropped and its job cancelled: a client that stops reading would hold its job slot
// until the connection timed out), and a job runs for at most `jobMs + jobMsPerNfe x its NFE`
// of wall-clock time (a cap that scales with the work asked for). Options of the server
// (buildApp) and flags of `sjd serve`, so that tests can use short ones.

export interface Deadlines {
  writeMs: number; // a stream's write waits this long for its client to read
  jobMs: number; // a job's time cap: this ...
  jobMsPerNfe: number; // ... plus this for each NFE of its budget
}

export const DEFAULT_DEADLINES: Deadlines = { writeMs: 5_000, jobMs: 10_000, jobMsPerNfe: 200 };

/** The deadlines with `o`'s in place of the defaults; throws for one that is not a number >= 0. */
export function deadlinesOf(o: Partial<Deadlines> = {}): Deadlines {
  const d = { ...DEFAULT_DEADLINES, ...o };
  for (const [k, v] of Object.entries(d)) {
    const min = k === 'jobMsPerNfe' ? 0 : 1;
    if (!(Number.isFinite(v) && v >= min))
      throw new Error(`deadline ${k} must be a number of milliseconds >= ${min}, got ${v}`);
  }
  return d;
}

/** A job's wall-clock cap in milliseconds for an NFE budget of `nfe`. */
export const jobCapMs = (d: Deadlines, nfe: number): number => d.jobMs + d.jobMsPerNfe * nfe;
