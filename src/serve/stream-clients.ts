// The per-client limit on open event streams of `sjd serve`: one remote address holds at most
// `perClient` streams open at once (waiting for a slot or running); one more is refused at once
// with 429, before anything is queued, so that one client cannot take every job slot with
// streams (a stream it stops reading is dropped by the write deadline, deadlines.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

export const DEFAULT_STREAMS_PER_CLIENT = 2;

export class StreamClients {
  readonly #open = new Map<string, number>(); // remote address -> its open streams

  constructor(readonly perClient: number) {
    if (!(Number.isInteger(perClient) && perClient >= 1))
      throw new Error(`streams per client must be a positive integer, got ${perClient}`);
  }

  /** Open streams in all. */
  open(): number {
    let n = 0;
    for (const k of this.#open.values()) n += k;
    return n;
  }

  /** A stream route's first hook: 429 for a client at its limit, else its stream counts until its connection closes. */
  readonly admit = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const ip = req.ip;
    const n = this.#open.get(ip) ?? 0;
    if (n >= this.perClient)
      throw new HttpError(
        429,
        `too many open streams from ${ip} (${this.perClient} at most); close one first`,
      );
    this.#open.set(ip, n + 1);
    reply.raw.once('close', () => {
      const left = this.#open.get(ip)! - 1;
      if (left === 0) this.#open.delete(ip);
      else this.#open.set(ip, left);
    });
  };
}
