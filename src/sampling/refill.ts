// Continuous batching of an adaptive sampler (app:sudoku's adaptive samplers; the driver's loop for
// them, driver.ts): a batch of at most `batchSize` slots, each holding one row (a board, a
// sequence) at its own time. A pass of the network runs on the rows still working; when a row
// finishes (every site committed: filled by its commits, or by its budget's last step, which fills
// every active site) its answer goes to the row source, and the next row the source gives takes
// the slot in the next pass (a Sudoku retry is such a row: retry.ts). So a pass is as full as
// there are rows waiting, and the batch never waits for its slowest row.
//
// A row draws its randomness from a generator keyed by the row itself (step-random.ts rowKey: its
// seed, its id, its attempt and its own step), its prior included, so its answer does not depend
// on what it was batched with, when it entered, or the batch size: a board solved alone and in a
// refilled batch gives the same digits and NFE (as far as the network's own arithmetic is the same
// for a row alone and in a batch). Memory is bounded by the batch size: the slots' state, and the
// rows the source holds back.
import type { SJDProcess } from '../process/index.js';
import {
  cat,
  getNumThreads,
  noGrad,
  type Tensor,
  tensor,
  tidy,
  withParallelThreads,
  zeros,
} from '../torch/index.js';
import { boardTime } from './board-time.js';
import { freeUnkept, rowsOf, stepRows, withRows } from './driver-rows.js';
import type { Exclusion } from './exclusion.js';
import { getSampler } from './registry.js';
import type { SamplerName } from './sampler-names.js';
import { mapState, stateDtype, stateTensors } from './state.js';
import { RowKeyedRandom, rowKey } from './step-random.js';
import { anchoredState, readPass, stateView } from './step-view.js';
import type { Classifier, CommitRule, SamplerState, StepContext, TrajectoryStep } from './types.js';

/** A row to sample: its key (seed, id, attempt), its NFE cap and its conditioned sites. */
export interface RowJob {
  seed: number;
  id: number; // the row's own number (a board's index in its set)
  attempt: number; // 0 for a first run; a retry's count
  budget: number; // the NFE cap of this run: its floor(budget / NFE a step)-th step fills it
  /** the conditioned sites: tokens [L] (read where mask is set) and mask [L] (1: conditioned) */
  condition?: { tokens: ArrayLike<number>; mask: ArrayLike<number> };
}

/** A finished row: its tokens [L] and the classifier evaluations it took part in. */
export interface RowAnswer {
  tokens: number[];
  nfe: number;
}

/**
 * Where the rows come from and their answers go: `take` gives the next row to start (undefined
 * when none waits now), `done` takes a row's answer (and may queue another row, a retry, for the
 * next `take`), and `dropped`, if given, names a row to stop at once (its request went away): its
 * slot is freed without an answer.
 */
export interface RowSource {
  take(): RowJob | undefined;
  done(job: RowJob, answer: RowAnswer): void;
  dropped?(job: RowJob): boolean;
}

export interface RefillOptions {
  process: SJDProcess;
  classifier: Classifier;
  anchors: Tensor; // [K, d]
  length: number; // sites a row
  sampler: SamplerName; // an adaptive sampler
  batchSize: number; // slots at most
  temperature: number;
  topP: number;
  commit?: CommitRule;
  exclude?: Exclusion;
  /**
   * false: new rows enter only when every slot is free (a batch waits for its slowest row: the
   * batching before this, kept to measure against); default true
   */
  refill?: boolean;
}

/** A pass as a watcher sees it: the slots' state, and the row in each slot (null: free). */
export interface RefillStep {
  step: TrajectoryStep; // over the slots: [slots * L], its t slot 0's, its nfe the run's passes
  jobs: (RowJob | null)[]; // [slots]
}

/** What a refilled run returns: its passes, and the slots' final tokens [S, L] and state y. */
export interface RefillResult {
  passes: number; // classifier evaluations of the batch (each over the rows then working)
  tokens: Tensor; // [S, L] int64: the last row each slot held (the caller frees it)
  y: Tensor; // [S, L, d] (the caller frees it)
}

/** Which passes are watched: every one, those while the first batch's first runs work, none. */
export type RefillWatch = 'all' | 'first' | 'none';

/** One slot's row: its job, its own step, its last step, its blanks and what it has spent. */
interface Slot {
  job: RowJob;
  step: number; // the row's own steps taken
  last: number; // the step its budget ends at (it fills the row)
  blanks: number; // sites not conditioned
  nfe: number;
  argmax: Int32Array; // [L] the last pass's top token at each site (-1 before the first)
  confidence: Float32Array; // [L] its tempered probability
  done: boolean; // every site committed
  first: boolean; // one of the rows of the run's first fill
}

/** Refuses a row the run cannot start: a budget under one step, condition of the wrong length or values. */
function checkJob(job: RowJob, L: number, K: number, nfePerStep: number): void {
  if (!(Number.isInteger(job.budget) && job.budget >= nfePerStep))
    throw new Error(
      `a row's NFE budget must be a whole number of at least ${nfePerStep} (one step), got ${job.budget}`,
    );
  const c = job.condition;
  if (!c) return;
  if (c.tokens.length !== L || c.mask.length !== L)
    throw new Error(`a row's condition must have ${L} sites, got ${c.tokens.length}`);
  for (let i = 0; i < L; i++)
    if (c.mask[i] && !(Number.isInteger(c.tokens[i]) && c.tokens[i]! >= 0 && c.tokens[i]! < K))
      throw new Error(`condition tokens must lie in 0..${K - 1}`);
}

/**
 * The new rows' state at t = T: y from the prior (N(0, I) keyed by each row, or the mask point),
 * conditioned sites committed on their anchors, a fresh search record for a searching sampler.
 */
function priorRows(
  proc: SJDProcess,
  E: Tensor, // [K, d] in the state's dtype
  jobs: RowJob[],
  L: number,
  search: boolean,
): SamplerState {
  const d = E.size(1);
  const n = jobs.length;
  return noGrad(() =>
    tidy(() => {
      const dtype = stateDtype(proc);
      const prior =
        proc.config.kernel === 'mask'
          ? zeros([n, L, d], dtype)
          : new RowKeyedRandom(jobs.map((j) => rowKey(j.seed, j.id, j.attempt, -1))).randn(
              [n, L, d],
              dtype,
            );
      const maskFlat = new Float64Array(n * L);
      const tokFlat = new Float64Array(n * L);
      jobs.forEach((j, r) => {
        if (!j.condition) return;
        for (let i = 0; i < L; i++) {
          if (!j.condition.mask[i]) continue;
          maskFlat[r * L + i] = 1;
          tokFlat[r * L + i] = j.condition.tokens[i]!;
        }
      });
      const committed = tensor(maskFlat, [n, L], 'float64').gt(0); // [n, L]
      const tokens = tensor(tokFlat, [n, L], 'float64').to('int64'); // [n, L]
      return anchoredState(prior, committed, tokens, E, search);
    }),
  );
}

/** A snapshot of the slots (free slots show their last row), with the last passes' reads. */
function snapshot(
  proc: SJDProcess,
  slots: (Slot | null)[],
  s: SamplerState,
  passes: number,
): RefillStep {
  const L = s.committed.size(1);
  const view = stateView(s);
  const argmax = new Int32Array(slots.length * L).fill(-1);
  const confidence = new Float32Array(slots.length * L);
  slots.forEach((slot, b) => {
    if (!slot) return;
    argmax.set(slot.argmax, b * L);
    confidence.set(slot.confidence, b * L);
  });
  const first = slots[0];
  let active = 0;
  for (let i = 0; i < L; i++) active += view.committed[i] ? 0 : 1;
  const t = first ? boardTime(proc, active / (first.blanks || 1)) : 0;
  return {
    step: { t, nfe: passes, ...view, argmax, confidence },
    jobs: slots.map((x) => x?.job ?? null),
  };
}

/** `prev` (absent: no rows yet) with the rows of `fresh` in its slots `reuse`, the rest appended. */
function place(prev: SamplerState | undefined, fresh: SamplerState, reuse: number[]): SamplerState {
  if (!prev) return fresh;
  const n = fresh.committed.size(0);
  return noGrad(() =>
    tidy(() => {
      let s = prev;
      if (reuse.length > 0) {
        const at = tensor(reuse, [reuse.length], 'int64');
        const head = tensor([...reuse.keys()], [reuse.length], 'int64');
        s = withRows(s, at, rowsOf(fresh, head));
      }
      if (reuse.length === n) return s;
      const tail = tensor(
        Array.from({ length: n - reuse.length }, (_, k) => reuse.length + k),
        [n - reuse.length],
        'int64',
      );
      return mapState(s, (x, f) => cat([x, f!], 0), rowsOf(fresh, tail));
    }),
  );
}

/** A state of no rows (a run given none). */
function emptyState(E: Tensor, L: number): { tokens: Tensor; y: Tensor } {
  return { tokens: zeros([0, L], 'int64'), y: zeros([0, L, E.size(1)], E.dtype) };
}

/**
 * The rows of `source` through the adaptive sampler `o.sampler`, refilling the batch as rows
 * finish, until the source has no row waiting and every slot is free; yields after rows enter
 * and after every pass (a RefillStep where watched, else null, which costs nothing). A row's
 * answer goes to the source once the step that finished it has been yielded. Stopping early
 * (`return()`) frees everything the run holds.
 */
export function* refillSteps(
  o: RefillOptions,
  source: RowSource,
  watch: RefillWatch,
): Generator<RefillStep | null, RefillResult> {
  const sampler = getSampler(o.sampler);
  if (sampler.kind !== 'adaptive')
    throw new Error(`refilling the batch needs an adaptive sampler, not ${o.sampler}`);
  if (!(Number.isInteger(o.batchSize) && o.batchSize >= 1))
    throw new Error(`batch size must be a positive integer, got ${o.batchSize}`);
  if (o.process.blend.L !== o.length)
    throw new Error(
      `the process's W is for length ${o.process.blend.L}, sampling length ${o.length}`,
    );
  const L = o.length;
  const perStep = sampler.nfePerStep;
  const slots: (Slot | null)[] = []; // null: free (its state row is the last row it held)
  let rows: number[] = []; // the slots the classifier pass sees
  let passes = 0;
  let firstRuns = 0; // the rows of the first fill still working (the 'first' watch)
  let watching = watch !== 'none';
  const E = tidy(() => o.anchors.detach().to(stateDtype(o.process))); // [K, d]
  const K = E.size(0);
  const threads = getNumThreads(); // the network's; the steps' own tensors run on one
  const ctx: StepContext = {
    process: o.process,
    classifier: (y, t, committed) => {
      passes++;
      for (const b of rows) slots[b]!.nfe++;
      const logits = withParallelThreads(threads, () => o.classifier(y, t, committed)); // [rows, L, K]
      if (watching)
        readPass(logits, o.temperature, (r, argmax, confidence) => {
          slots[rows[r]!]!.argmax.set(argmax);
          slots[rows[r]!]!.confidence.set(confidence);
        });
      return logits;
    },
    anchors: E,
    temperature: o.temperature,
    topP: o.topP,
    commit: o.commit,
    exclude: o.exclude,
  };
  let state: SamplerState | undefined;
  let finished = false;
  const look = () => (watching ? snapshot(o.process, slots, state!, passes) : null);

  /** Frees a slot; the last of the first fill's rows to go ends a 'first' watch. */
  const release = (b: number) => {
    if (slots[b]!.first && --firstRuns === 0 && watch === 'first') watching = false;
    slots[b] = null;
  };

  /** Hands the finished rows' answers to the source (which may queue retries) and frees their slots. */
  const harvest = () => {
    const ended = slots.flatMap((s, b) => (s?.done ? [b] : []));
    if (ended.length === 0) return;
    const tokens = tidy(() => state!.tokens.toArray()); // [S * L]
    for (const b of ended) {
      const { job, nfe } = slots[b]!;
      release(b);
      source.done(job, { tokens: tokens.slice(b * L, (b + 1) * L), nfe });
    }
  };

  try {
    for (;;) {
      // Rows whose requests went away leave; rows waiting fill the free slots (with refill off,
      // only once every slot is free).
      slots.forEach((s, b) => {
        if (s && source.dropped?.(s.job)) release(b);
      });
      const open = slots.flatMap((s, b) => (s === null ? [b] : []));
      const working = slots.length - open.length;
      const entering: RowJob[] = [];
      if (o.refill !== false || working === 0)
        while (entering.length < open.length + o.batchSize - slots.length) {
          const job = source.take();
          if (!job) break;
          checkJob(job, L, K, perStep);
          entering.push(job);
        }
      if (entering.length > 0) {
        const fresh = priorRows(o.process, E, entering, L, sampler.search === true);
        const reuse = open.slice(0, entering.length);
        const prev = state;
        state = place(prev, fresh, reuse);
        if (prev) freeUnkept(prev, [state]);
        freeUnkept(fresh, [state]);
        const first = passes === 0;
        entering.forEach((job, k) => {
          const b = k < reuse.length ? reuse[k]! : slots.length;
          const blanks = job.condition
            ? L - Array.from(job.condition.mask).filter(Boolean).length
            : L;
          if (first) firstRuns++;
          slots[b] = {
            job,
            step: 0,
            last: Math.floor(job.budget / perStep) - 1,
            blanks,
            nfe: 0,
            argmax: new Int32Array(L).fill(-1),
            confidence: new Float32Array(L),
            done: blanks === 0,
            first,
          };
        });
        yield look();
        harvest(); // rows with nothing to sample
      }
      const active = slots.flatMap((s, b) => (s ? [b] : []));
      if (active.length === 0) {
        if (entering.length > 0) continue;
        break;
      }
      // the rows whose budget this pass ends (their last step fills them), then the others
      const ending = active.filter((b) => slots[b]!.step === slots[b]!.last);
      const going = active.filter((b) => slots[b]!.step !== slots[b]!.last);
      const blanks = Float64Array.from(slots, (s) => s?.blanks ?? L); // [S]
      const before = state!;
      let next = before;
      for (const [part, isLast] of [
        [ending, true],
        [going, false],
      ] as const) {
        if (part.length === 0) continue;
        rows = part;
        const keys = part.map((b) => {
          const { job, step } = slots[b]!;
          return rowKey(job.seed, job.id, job.attempt, step);
        });
        const prev = next;
        const random = new RowKeyedRandom(keys);
        next = withParallelThreads(1, () =>
          stepRows(sampler.step, ctx, prev, part, blanks, isLast, random),
        );
        if (prev !== before) freeUnkept(prev, [next, before]);
      }
      state = next;
      freeUnkept(before, [state]);
      const full = tidy(() => state!.committed.all(-1).toArray()); // [S]
      for (const b of active) {
        slots[b]!.step++;
        slots[b]!.done = full[b]! > 0;
      }
      yield look();
      harvest();
    }
    finished = true;
    if (!state) return { passes, ...emptyState(E, L) };
    return { passes, tokens: state.tokens, y: state.y };
  } finally {
    E.dispose();
    if (state) {
      const kept = finished ? [state.tokens, state.y] : [];
      for (const x of stateTensors(state)) if (!kept.includes(x)) x.dispose();
    }
  }
}

/**
 * A refilled run's steps as a sampling run's: each watched pass through `f` (the slots' state by
 * default; a task may map each slot back to its own terms), null where not watched.
 */
export function* samplingSteps<R>(
  run: Generator<RefillStep | null, R>,
  f: (s: RefillStep) => TrajectoryStep = (s) => s.step,
): Generator<TrajectoryStep | null, R> {
  try {
    for (;;) {
      const r = run.next();
      if (r.done) return r.value;
      yield r.value && f(r.value);
    }
  } finally {
    run.return(undefined as R);
  }
}
