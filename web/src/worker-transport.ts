// The static site's transport (api.ts Transport): the page's API requests posted to the Web
// Worker that runs sjd in the page (src/web/site-worker.ts), answered as sjd serve answers them:
// JSON, a refusal (thrown as ApiError with its status and one-line reason), or a stream's events
// as they come. Aborting a stream's signal cancels its run in the worker at its next step.
import type { SiteAnswer, SiteRequest } from '../../dist/src/web/site-protocol.js';
import { ApiError, type StreamEvent, type Transport } from './api.js';

/** A request's answers as they arrive, and a wake-up for the reader waiting on them. */
interface Pending {
  queue: SiteAnswer[];
  wake: (() => void) | null;
}

export function workerTransport(worker: Worker): Transport {
  let next = 0;
  const pending = new Map<number, Pending>();
  worker.addEventListener('message', (e: MessageEvent<SiteAnswer>) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    p.queue.push(e.data);
    p.wake?.();
  });
  worker.addEventListener('error', (e) => {
    for (const [id, p] of pending) {
      p.queue.push({ id, refused: { status: 500, error: `the worker failed: ${e.message}` } });
      p.wake?.();
    }
  });
  const post = (m: SiteRequest) => worker.postMessage(m);

  /** A new request to `url`: its id and where its answers arrive. */
  const open = (url: string, stream: boolean) => {
    const id = next++;
    const p: Pending = { queue: [], wake: null };
    pending.set(id, p);
    post({ id, url, stream });
    return { id, p };
  };

  /** The request's next answer; null once `signal` has aborted. */
  const take = async (p: Pending, signal?: AbortSignal): Promise<SiteAnswer | null> => {
    while (p.queue.length === 0) {
      if (signal?.aborted) return null;
      await new Promise<void>((wake) => {
        p.wake = wake;
      });
      p.wake = null;
    }
    return p.queue.shift()!;
  };

  const refused = (a: SiteAnswer): never => {
    const r = 'refused' in a ? a.refused : { status: 500, error: 'the worker gave no answer' };
    throw new ApiError(r.status, r.error);
  };

  return {
    async json(url) {
      const { id, p } = open(url, false);
      try {
        const a = (await take(p))!;
        return 'json' in a ? a.json : refused(a);
      } finally {
        pending.delete(id);
      }
    },
    async *stream(url, signal) {
      const { id, p } = open(url, true);
      let ended = false;
      const cancel = () => {
        post({ cancel: id });
        p.wake?.();
      };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        for (;;) {
          const a = await take(p, signal);
          if (!a) return; // aborted: the run is cancelled
          if ('event' in a) yield a.event as StreamEvent<unknown>;
          else {
            ended = true;
            if ('refused' in a) refused(a);
            return;
          }
        }
      } finally {
        signal.removeEventListener('abort', cancel);
        pending.delete(id);
        if (!ended && !signal.aborted) post({ cancel: id }); // the reader left early
      }
    },
  };
}
