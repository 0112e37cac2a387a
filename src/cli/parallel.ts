// The data-parallel flags of `sjd train` (src/train/data-parallel.ts, launcher.ts):
// --nproc launches local ranks, --rank/--world-size/--master/--interface join a group, --shards
// cuts a new run's batch; each is checked in one line before any rank starts or any data loads.
import { lookup } from 'node:dns/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { train as T, torch, util } from '../index.js';
import { int } from './options.js';

/** The data-parallel flags of a training command. */
export interface ParallelFlags {
  out: string;
  resume?: boolean;
  nproc?: number;
  rank?: number;
  worldSize?: number;
  master?: string;
  interface?: string;
  rendezvousTimeout?: number; // seconds
  shards?: number;
}

/** How long a rank waits for the rendezvous by default, in seconds. */
export const RENDEZVOUS_S = 120;

/** The data-parallel flags as a training command's options. */
export const parallelOptions = (c: Command) =>
  c
    .option('--nproc <n>', 'data-parallel: start N local processes (ranks 0..N-1)', int(1, 1024))
    .option('--rank <r>', "data-parallel across machines: this process's rank", int(0, 1_000_000))
    .option(
      '--world-size <n>',
      'data-parallel across machines: the number of ranks',
      int(1, 1_000_000),
    )
    .option(
      '--master <addr:port>',
      "data-parallel across machines: rank 0's address and a free port",
    )
    .option(
      '--interface <name>',
      'data-parallel across machines: the network interface the ranks talk over (default: $GLOO_SOCKET_IFNAME, or loopback when --master is on it)',
    )
    .option(
      '--rendezvous-timeout <s>',
      `data-parallel: seconds a rank waits to join the group (default ${RENDEZVOUS_S})`,
      int(1, 86_400),
    )
    .option(
      '--shards <n>',
      "data-parallel: each step's batch in N parts with their own generators, shared by the ranks (default: the number of ranks)",
      int(1, 65_536),
    );

/** With --nproc: this process launches the ranks and waits for them (true: nothing else to do). */
export async function launched(o: ParallelFlags): Promise<boolean> {
  if (o.nproc === undefined) return false;
  if (o.rank !== undefined || o.worldSize !== undefined || o.master !== undefined)
    throw new Error(
      '--nproc starts its own ranks; --rank, --world-size and --master are for joining a group',
    );
  // the ranks must be able to share the run's shards: checked here, before any rank starts
  const shards = o.resume
    ? T.readConfig(join(o.out, T.RUN_FILES.config)).shards
    : (o.shards ?? o.nproc);
  if (shards === undefined)
    throw new Error(`${o.out}: the run has no shards (config.shards), so it trains in one process`);
  T.shardsOf(shards, { rank: 0, worldSize: o.nproc });
  const argv = withoutOptions(process.argv.slice(2), ['--nproc', '--threads']);
  const threads = Math.max(1, Math.floor(torch.getNumThreads() / o.nproc));
  process.exitCode = await T.launch({ nproc: o.nproc, argv, bin: process.argv[1]!, threads });
  return true;
}

/** argv without the named options and their values (`--name value` or `--name=value`). */
function withoutOptions(argv: string[], names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (names.includes(a)) i++;
    else if (!names.some((n) => a.startsWith(`${n}=`))) out.push(a);
  }
  return out;
}

/**
 * --rank, --world-size, --master: join the group (rank 0 hosts the rendezvous). The master's
 * name is resolved first (a name that does not resolve fails at once), and the rendezvous waits
 * at most --rendezvous-timeout seconds.
 */
export async function joinGroup(o: ParallelFlags): Promise<T.DataParallel> {
  const given = [o.rank, o.worldSize, o.master].filter((x) => x !== undefined).length;
  if (given === 0) return T.SINGLE;
  if (given < 3) throw new Error('--rank, --world-size and --master go together');
  if (o.rank! >= o.worldSize!)
    throw new Error(`--rank ${o.rank} is not below --world-size ${o.worldSize}`);
  // ADDRESS:PORT, an IPv6 address in brackets ([::1]:29500)
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d+)$/.exec(o.master!);
  if (!m || Number(m[3]) < 1 || Number(m[3]) > 65_535)
    throw new Error(
      `--master must be ADDRESS:PORT (an IPv6 address in brackets), got '${o.master}'`,
    );
  const host = (m[1] ?? m[2])!;
  const port = Number(m[3]);
  const iface = o.interface ?? process.env.GLOO_SOCKET_IFNAME;
  const loopback = util.isLoopback(host, true);
  if (!iface && !loopback)
    throw new Error(
      `--master ${o.master} is not on loopback: name this machine's network interface with --interface (or GLOO_SOCKET_IFNAME)`,
    );
  try {
    await lookup(host);
  } catch (e) {
    throw new Error(
      `--master ${o.master}: cannot resolve '${host}' (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const seconds = o.rendezvousTimeout ?? RENDEZVOUS_S;
  let group: torch.distributed.ProcessGroup;
  try {
    group = torch.distributed.initProcessGroup({
      backend: 'gloo',
      store: { kind: 'tcp', host, port, isMaster: o.rank === 0 },
      rank: o.rank!,
      worldSize: o.worldSize!,
      rendezvousMs: seconds * 1000,
      ...(iface ? { interface: iface } : {}),
    });
  } catch (e) {
    throw new Error(
      `rank ${o.rank} of ${o.worldSize} could not join the group at ${o.master} within ${seconds} s (--rendezvous-timeout): ${(e as Error).message.split('\n')[0]!.replace(/^distributed init failed on rank \d+ of \d+ \(timeout \d+ ms\): /, '')}`,
    );
  }
  return { group, rank: o.rank!, worldSize: o.worldSize! };
}

/** A new run's shards: --shards, else the number of ranks when there are several. */
export function withShards(
  config: T.TrainConfig,
  o: ParallelFlags,
  dp: T.DataParallel,
): T.TrainConfig {
  if (o.resume) {
    if (o.shards !== undefined && o.shards !== config.shards)
      throw new Error(
        `--shards ${o.shards}: the run was started with ${config.shards ?? 'no'} shards`,
      );
    return config;
  }
  const shards = o.shards ?? (dp.worldSize > 1 ? dp.worldSize : undefined);
  return shards === undefined ? config : { ...config, shards };
}
