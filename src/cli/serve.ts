// `sjd serve`: the web page and its API (issue #15) on loopback (or --host), serving the models
// of a folder (the package's models/ by default); prints its URL and which tasks it serves, and
// drains on SIGINT or SIGTERM.
import type { Command } from 'commander';
import { serve } from '../index.js';
import { int } from './options.js';

interface ServeOpts {
  port: number;
  host: string;
  models?: string;
  jobs: number;
  queue: number;
  log?: boolean;
}

/** How long a stop waits for running jobs before it closes their connections. */
const DRAIN_MS = 30_000;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the web page that shows tokens sticking, and its API (README: sjd serve)')
    .option('--port <n>', 'TCP port (0: any free one)', int(0, 65535), 8080)
    .option('--host <addr>', 'address to listen on (127.0.0.1: this machine only)', '127.0.0.1')
    .option('--models <dir>', "models folder with sudoku/, text/, image/ (default: the package's)")
    .option('--jobs <n>', 'sampling jobs run at once (their steps interleave)', int(1, 64), 2)
    .option('--queue <n>', 'jobs that may wait for a slot; more are refused (503)', int(0, 1024), 8)
    .option('--log', "log every request (fastify's JSON log on stdout)")
    .action(async (o: ServeOpts) => {
      const s = await serve.startServer({
        port: o.port,
        host: o.host,
        models: o.models,
        queue: { concurrency: o.jobs, maxWaiting: o.queue },
        log: o.log,
      });
      const log = (line: string) => console.error(`sjd serve: ${line}`);
      for (const task of serve.TASKS) {
        const m = s.ctx.served[task];
        log(`${task}: ${'unavailable' in m ? `unavailable (${m.unavailable})` : m.source}`);
      }
      console.log(`sjd serve: listening on ${s.url}`);
      serve.drainOnSignals(s, { drainMs: DRAIN_MS, log });
    });
}
