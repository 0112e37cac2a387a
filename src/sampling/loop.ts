// The one sampling loop (md4's split: pure step functions, one loop) over a batch of at most
// `batchSize` slots, each holding one row (a board, a sequence) from a row source. A pass of the
// network runs on the rows still working; when a row is done its answer goes to the source, and
// the next row the source gives takes the slot in the next pass (continuous batching: a Sudoku
// retry is such a row, retry.ts), so a pass is as full as there are rows waiting and the batch
// never waits for its slowest row. What differs by the sampler's kind is its step plan
// (step-plans.ts): a grid sampler's rows all enter at once and step together along one time grid
// (driver.ts runs them so, a source that never refills); an adaptive sampler's rows each step at
// their own time, their randomness keyed by the row, so a row's answer does not depend on what it
// was batched with, when it entered, or the batch size. Memory is bounded by the batch size: the
// slots' state, and the rows the source holds back.
import { getNumThreads, type Tensor, tidy, withParallelThreads, zeros } from '../torch/index.js';
import { freeUnkept } from './driver-rows.js';
import { getSampler } from './registry.js';
import { checkJob, place, priorRows, snapshot } from './row-state.js';
import type {
  RefillOptions,
  RefillResult,
  RefillStep,
  RefillWatch,
  RowJob,
  RowSource,
  Slot,
} from './rows.js';
import { stateDtype, stateTensors } from './state.js';
import { adaptivePlan, type StepPlan } from './step-plans.js';
import { readPass } from './step-view.js';
import type { SamplerState, StepContext, TrajectoryStep } from './types.js';

/** A run in progress: its slots (null: free; its state row is the last row it held) and state. */
interface Run {
  o: RefillOptions;
  source: RowSource;
  plan: StepPlan;
  watch: RefillWatch;
  slots: (Slot | null)[];
  rows: number[]; // the slots the classifier pass sees
  passes: number;
  firstRuns: number; // the rows of the first fill still working (the 'first' watch)
  watching: boolean;
  E: Tensor; // [K, d] in the state's dtype
  ctx: StepContext;
  state?: SamplerState;
}

/** The step context: the classifier counts each pass and each row's part in it, and reads it when watched. */
function contextOf(run: Omit<Run, 'ctx'>): StepContext {
  const { o } = run;
  const threads = getNumThreads(); // the network's; an adaptive step's own tensors run on one
  return {
    process: o.process,
    classifier: (y, t, committed) => {
      run.passes++;
      for (const b of run.rows) run.slots[b]!.nfe++;
      const logits = withParallelThreads(threads, () => o.classifier(y, t, committed)); // [rows, L, K]
      if (run.watching)
        readPass(logits, o.temperature, (r, argmax, confidence) => {
          run.slots[run.rows[r]!]!.argmax.set(argmax);
          run.slots[run.rows[r]!]!.confidence.set(confidence);
        });
      return logits;
    },
    anchors: run.E,
    temperature: o.temperature,
    topP: o.topP,
    commit: o.commit,
    exclude: o.exclude,
  };
}

/** Frees a slot; the last of the first fill's rows to go ends a 'first' watch. */
function release(run: Run, b: number): void {
  if (run.slots[b]!.first && --run.firstRuns === 0 && run.watch === 'first') run.watching = false;
  run.slots[b] = null;
}

/** Hands the finished rows' answers to the source (which may queue retries) and frees their slots. */
function harvest(run: Run): void {
  const ended = run.slots.flatMap((s, b) => (s?.done ? [b] : []));
  if (ended.length === 0) return;
  const L = run.o.length;
  const tokens = tidy(() => run.state!.tokens.toArray()); // [S * L]
  for (const b of ended) {
    const { job, nfe } = run.slots[b]!;
    release(run, b);
    run.source.done(job, { tokens: tokens.slice(b * L, (b + 1) * L), nfe });
  }
}

/**
 * Rows whose requests went away leave; rows waiting fill the free slots (with refill off, only
 * once every slot is free), from the prior. Returns how many entered.
 */
function enter(run: Run): number {
  const { o, slots, plan } = run;
  const L = o.length;
  slots.forEach((s, b) => {
    if (s && run.source.dropped?.(s.job)) release(run, b);
  });
  const open = slots.flatMap((s, b) => (s === null ? [b] : []));
  const entering: RowJob[] = [];
  if (o.refill !== false || open.length === slots.length)
    while (entering.length < open.length + o.batchSize - slots.length) {
      const job = run.source.take();
      if (!job) break;
      checkJob(job, L, run.E.size(0), plan.nfePerStep);
      entering.push(job);
    }
  if (entering.length === 0) return 0;
  const noise = (shape: number[]) => plan.noise(entering, shape, stateDtype(o.process));
  const fresh = priorRows(o.process, run.E, entering, L, plan.search, noise);
  const reuse = open.slice(0, entering.length);
  const prev = run.state;
  run.state = place(prev, fresh, reuse);
  if (prev) freeUnkept(prev, [run.state]);
  freeUnkept(fresh, [run.state]);
  const first = run.passes === 0;
  entering.forEach((job, k) => {
    const b = k < reuse.length ? reuse[k]! : slots.length;
    const blanks = job.condition ? L - Array.from(job.condition.mask).filter(Boolean).length : L;
    if (first) run.firstRuns++;
    const slot: Slot = {
      job,
      step: 0,
      last: Math.floor(job.budget / plan.nfePerStep) - 1,
      blanks,
      nfe: 0,
      argmax: new Int32Array(L).fill(-1),
      confidence: new Float32Array(L),
      done: false,
      first,
    };
    slot.done = plan.done(() => blanks === 0, slot);
    slots[b] = slot;
  });
  return entering.length;
}

/** One pass over the working rows: those whose budget it ends (their last step fills them), then the others. */
function pass(run: Run, active: number[]): void {
  const { slots } = run;
  const ending = active.filter((b) => slots[b]!.step === slots[b]!.last);
  const going = active.filter((b) => slots[b]!.step !== slots[b]!.last);
  const blanks = Float64Array.from(slots, (s) => s?.blanks ?? run.o.length); // [S]
  const before = run.state!;
  let next = before;
  for (const [part, isLast] of [
    [ending, true],
    [going, false],
  ] as const) {
    if (part.length === 0) continue;
    run.rows = part;
    const prev = next;
    next = run.plan.step(run.ctx, prev, part, slots, blanks, isLast);
    if (prev !== before) freeUnkept(prev, [next, before]);
  }
  run.state = next;
  freeUnkept(before, [next]);
  let full: number[] | undefined; // [S], read once if a plan asks
  const isFull = (b: number) => {
    full ??= tidy(() => next.committed.all(-1).toArray());
    return full[b]! > 0;
  };
  for (const b of active) {
    slots[b]!.step++;
    slots[b]!.done = run.plan.done(() => isFull(b), slots[b]!);
  }
}

/**
 * The rows of `source` through `plan`, refilling the batch as rows finish, until the source has
 * no row waiting and every slot is free; yields after rows enter and after every pass (a
 * RefillStep where watched, else null, which costs nothing). A row's answer goes to the source
 * once the step that finished it has been yielded. Stopping early (`return()`) frees everything.
 */
export function* rowSteps(
  o: RefillOptions,
  source: RowSource,
  watch: RefillWatch,
  plan: StepPlan,
): Generator<RefillStep | null, RefillResult> {
  if (!(Number.isInteger(o.batchSize) && o.batchSize >= 1))
    throw new Error(`batch size must be a positive integer, got ${o.batchSize}`);
  if (o.process.blend.L !== o.length)
    throw new Error(
      `the process's W is for length ${o.process.blend.L}, sampling length ${o.length}`,
    );
  const E = tidy(() => o.anchors.detach().to(stateDtype(o.process))); // [K, d]
  const base = { o, source, plan, watch, slots: [], rows: [], passes: 0, firstRuns: 0, E };
  const partial: Omit<Run, 'ctx'> = { ...base, watching: watch !== 'none' };
  const run: Run = Object.assign(partial, { ctx: contextOf(partial) });
  let finished = false;
  const look = () =>
    run.watching ? snapshot(run.slots, run.state!, run.passes, (s, c) => plan.time(s, c)) : null;
  try {
    for (;;) {
      const entered = enter(run);
      if (entered > 0) {
        yield look();
        harvest(run); // rows with nothing to sample
      }
      const active = run.slots.flatMap((s, b) => (s ? [b] : []));
      if (active.length === 0) {
        if (entered > 0) continue;
        break;
      }
      pass(run, active);
      yield look();
      harvest(run);
    }
    finished = true;
    const L = o.length;
    if (!run.state)
      return { passes: 0, tokens: zeros([0, L], 'int64'), y: zeros([0, L, E.size(1)], E.dtype) };
    return { passes: run.passes, tokens: run.state.tokens, y: run.state.y };
  } finally {
    E.dispose();
    if (run.state) {
      const kept = finished ? [run.state.tokens, run.state.y] : [];
      for (const x of stateTensors(run.state)) if (!kept.includes(x)) x.dispose();
    }
  }
}

/** An adaptive sampler's rows of `source`, refilled as they finish (rowSteps under its plan). */
export function* refillSteps(
  o: RefillOptions,
  source: RowSource,
  watch: RefillWatch,
): Generator<RefillStep | null, RefillResult> {
  const sampler = getSampler(o.sampler);
  if (sampler.kind !== 'adaptive')
    throw new Error(`refilling the batch needs an adaptive sampler, not ${o.sampler}`);
  return yield* rowSteps(o, source, watch, adaptivePlan(sampler, o.process));
}

/**
 * A run's steps as a sampling run's: each watched pass through `f` (the slots' state by default;
 * a task may map each slot back to its own terms), null where not watched.
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
