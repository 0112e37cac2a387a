// Running `sjd serve`: the application listening on host:port (loopback unless the caller says
// otherwise, and it says whether it is; port 0 picks a free one), and a drain on SIGINT or SIGTERM:
// no new connections, the jobs running and waiting finish (at most `drainMs`, after which the open
// connections are closed, which cancels their jobs at the next step), then the process exits with
// status 0. A second signal exits at once.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isLoopback } from '../util/loopback.js';
import { type AppOptions, buildApp } from './app.js';
import type { ServeContext } from './context.js';

export interface ServeOptions extends AppOptions {
  port: number;
  host: string;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServeContext;
  url: string; // http://host:port/
  loopback: boolean; // whether only this machine can reach it
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const { app, ctx } = await buildApp(o);
  await app.listen({ port: o.port, host: o.host });
  const a = app.server.address() as AddressInfo;
  // the address bound (0.0.0.0 or :: for every interface) and any other (localhost may give two)
  const loopback = [a, ...app.addresses()].every(
    (b) => typeof b !== 'string' && isLoopback(b.address),
  );
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return { app, ctx, url: `http://${host}:${a.port}/`, loopback };
}

export function drainOnSignals(
  s: RunningServer,
  o: { drainMs: number; log: (line: string) => void },
): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    const q = s.ctx.queue.stats();
    o.log(`${signal}: draining (${q.running} jobs running, ${q.waiting} waiting)`);
    const force = setTimeout(() => s.app.server.closeAllConnections(), o.drainMs);
    await s.app.close();
    clearTimeout(force);
    o.log('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
}
