// The local launcher of data-parallel training (like `torchrun --standalone`): starts N copies of
// this command as ranks 0..N-1 of one group on a free loopback port, each with its share of the
// threads, passes SIGINT/SIGTERM on to them (each stops at the same step, rank 0 checkpoints), and
// when one fails stops the others and reports the first failure in one line. N is bounded by what
// the machine holds (its cores and free memory), and the ranks start one at a time, so a signal
// during the launch stops it there.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism, constants, freemem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { maxOf } from '../util/fold.js';
import { freePort } from '../util/free-port.js';

/** Ranks a core may carry (oversubscription beyond this only thrashes). */
export const RANKS_PER_CORE = 2;
/** The memory one rank takes at the least (a rank of the tiny Sudoku model: about 235 MB). */
export const RANK_BYTES = 256 * 2 ** 20;

/** The most ranks this machine holds, and why: by cores and by free memory. */
export function rankBound(
  cores = availableParallelism(),
  free = freemem(),
): { max: number; why: string } {
  const byCores = RANKS_PER_CORE * cores;
  const byMemory = Math.max(1, Math.floor(free / RANK_BYTES));
  const gib = (b: number) => (b / 2 ** 30).toFixed(1);
  return {
    max: Math.min(byCores, byMemory),
    why: `${cores} cores carry ${byCores} ranks at ${RANKS_PER_CORE} a core; ${gib(free)} GiB of free memory holds ${byMemory} at ${RANK_BYTES / 2 ** 20} MiB a rank`,
  };
}

export interface LaunchOptions {
  nproc: number;
  argv: string[]; // the command's arguments without --nproc (e.g. ['train', 'sudoku', ...])
  bin: string; // the sjd entry point
  threads: number; // per rank
  /** called as each rank starts (tests) */
  onStart?: (rank: number) => void;
}

/**
 * Passes a rank's stderr on: rank 0 speaks for the group (its progress is passed on); every
 * rank's one-line error ('sjd: ...') is held back for the launcher's one failure line, which
 * the returned function gives.
 */
function relayStderr(child: ChildProcess, rank: number): () => string {
  let err = '';
  let partial = '';
  child.stderr?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('sjd: ')) err = line;
      else if (rank === 0) process.stderr.write(`${line}\n`);
    }
  });
  child.stderr?.on('end', () => {
    if (partial.startsWith('sjd: ')) err = partial;
    else if (rank === 0 && partial) process.stderr.write(partial);
  });
  return () => err;
}

/** The ranks' processes: signals passed on to them, the first failure kept, the others stopped. */
class Ranks {
  readonly children: ChildProcess[] = [];
  readonly failures: string[] = [];
  stopping = false;

  constructor(
    private readonly o: LaunchOptions,
    private readonly port: number,
  ) {}

  /** A handler that passes `sig` on to the running ranks. */
  forward(sig: NodeJS.Signals): () => void {
    return () => {
      this.stopping = true;
      for (const c of this.children) if (c.exitCode === null) c.kill(sig);
    };
  }

  /** Starts rank `rank`; resolves to its exit status. */
  start(rank: number): Promise<number> {
    const { o } = this;
    const args = [o.bin, '--threads', String(o.threads), ...o.argv, '--rank', String(rank)];
    args.push('--world-size', String(o.nproc), '--master', `127.0.0.1:${this.port}`);
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', rank === 0 ? 'inherit' : 'ignore', 'pipe'],
    });
    this.children.push(child);
    const err = relayStderr(child, rank);
    return new Promise<number>((resolve) => {
      child.on('close', (code, signal) => {
        // a rank a signal ended (SIGINT during synchronous work, which no handler interrupts)
        // has the status a shell gives it: 128 + the signal's number, 130 for SIGINT
        const status = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);
        if (status !== 0 && status !== 130 && !this.stopping) {
          this.failures.push(
            `rank ${rank} exited with ${signal ?? status}${err() ? `: ${err()}` : ''}`,
          );
          this.stopping = true;
          for (const c of this.children) if (c !== child && c.exitCode === null) c.kill('SIGTERM');
        }
        resolve(status);
      });
    });
  }

  /**
   * Starts the ranks one at a time; a signal between two starts stops the launch there: the loop
   * must reach its poll phase, where a signal's handler runs, before the next start. A timer alone
   * does not ensure it (an expired timer runs before the poll of its loop turn: under load the
   * next rank started first); setImmediate runs after the poll of the turn it was set in.
   */
  async startAll(): Promise<Promise<number>[]> {
    const exits: Promise<number>[] = [];
    for (let rank = 0; rank < this.o.nproc && !this.stopping; rank++) {
      exits.push(this.start(rank));
      this.o.onStart?.(rank);
      await sleep(5);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return exits;
  }
}

/** Runs the ranks to the end; resolves to the exit status the launcher should return. */
export async function launch(o: LaunchOptions): Promise<number> {
  if (!(Number.isInteger(o.nproc) && o.nproc >= 1))
    throw new Error(`--nproc must be a whole number >= 1, got ${o.nproc}`);
  const bound = rankBound();
  if (o.nproc > bound.max)
    throw new Error(
      `--nproc ${o.nproc}: this machine holds at most ${bound.max} ranks (${bound.why})`,
    );
  const ranks = new Ranks(o, await freePort());
  const onInt = ranks.forward('SIGINT');
  const onTerm = ranks.forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    const exits = await ranks.startAll();
    if (exits.length < o.nproc) {
      // Stopped during the launch: the group never formed, so no rank has trained; the started
      // ones wait in the rendezvous, where only SIGKILL reaches them.
      for (const c of ranks.children) if (c.exitCode === null) c.kill('SIGKILL');
      await Promise.all(exits);
      return 130;
    }
    const statuses = await Promise.all(exits);
    if (ranks.failures.length > 0)
      throw new Error(`data-parallel training failed: ${ranks.failures[0]}`);
    return maxOf(statuses);
  } finally {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
  }
}
