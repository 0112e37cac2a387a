// `sjd serve`: the web page and its API on loopback (or --host), serving the models
// of a folder (the package's models/ by default), with its job queue, deadlines and per-client
// stream limit; prints its URL and which tasks it serves, and drains on SIGINT or SIGTERM.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { PrecisionSetting } from '../model/auto-precision.js';
import { precisionOf } from '../model/precision.js';
import * as serve from '../serve/index.js';
import { int } from './options.js';
import { withPrecisionFlag } from './precision-flag.js';

interface ServeOpts {
  port: number;
  host: string;
  models?: string;
  jobs: number;
  queue: number;
  queueTimeout: number;
  writeTimeout: number;
  jobTimeout: number;
  jobTimeoutPerNfe: number;
  streamsPerClient: number;
  log?: boolean;
  precision?: PrecisionSetting;
}

/** How long a stop waits for running jobs before it closes their connections. */
const DRAIN_MS = 30_000;

const D = serve.DEFAULT_DEADLINES;

/** Starts the server, says what it serves and where, and drains it on SIGINT or SIGTERM. */
async function serveModels(o: ServeOpts): Promise<void> {
  const s = await serve.startServer({
    port: o.port,
    host: o.host,
    models: o.models,
    precision: o.precision,
    queue: { concurrency: o.jobs, maxWaiting: o.queue, waitMs: o.queueTimeout },
    deadlines: {
      writeMs: o.writeTimeout,
      jobMs: o.jobTimeout,
      jobMsPerNfe: o.jobTimeoutPerNfe,
    },
    streamsPerClient: o.streamsPerClient,
    log: o.log,
  });
  const log = (line: string) => console.error(`sjd serve: ${line}`);
  const models = resolve(o.models ?? serve.SHIPPED_MODELS);
  log(`models: ${models}`);
  for (const [task, m] of Object.entries(s.ctx.served)) {
    log(
      `${task}: ${'unavailable' in m ? `unavailable (${m.unavailable})` : `${join(models, m.source)}, ${precisionOf(m.config.model)}`}`,
    );
  }
  if (!s.loopback)
    log(
      `warning: listening on ${o.host}, reachable from other machines; the server has no authentication and no TLS`,
    );
  console.log(`sjd serve: listening on ${s.url}`);
  serve.drainOnSignals(s, { drainMs: DRAIN_MS, log });
}

export function registerServe(program: Command): void {
  withPrecisionFlag(
    program
      .command('serve')
      .description('serve the web page that shows tokens sticking, and its API (docs/serve.md)'),
  )
    .option('--port <n>', 'TCP port (0: any free one)', int(0, 65535), 8080)
    .option('--host <addr>', 'address to listen on (127.0.0.1: this machine only)', '127.0.0.1')
    .option('--models <dir>', "models folder with sudoku/, text/, image/ (default: the package's)")
    .option('--jobs <n>', 'sampling jobs run at once (their steps interleave)', int(1, 64), 2)
    .option('--queue <n>', 'jobs that may wait for a slot; more are refused (503)', int(0, 1024), 8)
    .option(
      '--queue-timeout <ms>',
      'a job that waits this long without a slot is refused (503)',
      int(1, 3_600_000),
      serve.DEFAULT_QUEUE.waitMs!,
    )
    .option(
      '--write-timeout <ms>',
      'a stream whose client takes nothing for this long is dropped and its job cancelled',
      int(1, 3_600_000),
      D.writeMs,
    )
    .option(
      '--job-timeout <ms>',
      "a job's wall-clock cap: this plus --job-timeout-per-nfe for each NFE it asks for",
      int(1, 86_400_000),
      D.jobMs,
    )
    .option('--job-timeout-per-nfe <ms>', 'see --job-timeout', int(0, 3_600_000), D.jobMsPerNfe)
    .option(
      '--streams-per-client <n>',
      'open streams one remote address may hold; more are refused (429)',
      int(1, 1024),
      serve.DEFAULT_STREAMS_PER_CLIENT,
    )
    .option('--log', "log every request (fastify's JSON log on stdout)")
    .action(serveModels);
}
