// The page's side of sjd serve's API: JSON requests, and the stream of a sampling run read as
// Server-Sent Events from a fetch response (rather than EventSource, so that a refused request
// shows its status and one-line reason: 400 for a bad puzzle, 503 with Retry-After when the server
// is busy). On the static site of `sjd export-web` the same requests go to a Web Worker that runs
// sjd in the page (worker-transport.ts, set by answerInWorker), with the same answers. The answers' types are the server's own, written once for both: src/serve/api-types.ts,
// imported as types only from the declarations that `tsc -p tsconfig.json` emits for it (npm run
// build compiles the server first), so nothing of it is emitted here or loaded by the browser.
import type { ErrorAnswer, StreamEvent } from '../../dist/src/serve/api-types.js';

export type {
  GenerateAnswer,
  ImageSampleAnswer,
  ModelsInfo,
  ServedTask,
  SolveAnswer,
  StepEvent,
  StreamEvent,
  TaskName,
  TextSampleAnswer,
} from '../../dist/src/serve/api-types.js';

/** A refused request: its status and the server's one-line reason. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiError> {
  let reason = res.statusText;
  try {
    reason = ((await res.json()) as Partial<ErrorAnswer>).error ?? reason;
  } catch {
    // not JSON: keep the status text
  }
  const retry = res.headers.get('retry-after');
  return new ApiError(res.status, retry ? `${reason} (retry after ${retry} s)` : reason);
}

/** Where the page's requests go: sjd serve over HTTP, or a Worker in the page. */
export interface Transport {
  json(url: string): Promise<unknown>;
  stream(url: string, signal: AbortSignal): AsyncGenerator<StreamEvent<unknown>>;
}

async function httpJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw await failure(res);
  return res.json();
}

/** The events of a stream (event and JSON data of each block), until it ends or `signal` aborts. */
async function* httpStream(url: string, signal: AbortSignal): AsyncGenerator<StreamEvent<unknown>> {
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  if (!res.ok || !res.body) throw await failure(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0)
        yield { event, data: JSON.parse(data.join('\n')) } as StreamEvent<unknown>;
    }
  }
}

let transport: Transport = { json: httpJson, stream: httpStream };

/** From now on the page's requests go to `t` (the static site's Worker). */
export function useTransport(t: Transport): void {
  transport = t;
}

export async function getJson<T>(url: string): Promise<T> {
  return (await transport.json(url)) as T;
}

/**
 * The events of a stream until it ends or `signal` aborts; `Answer` is its `done` event's.
 */
export function streamEvents<Answer>(
  url: string,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent<Answer>> {
  return transport.stream(url, signal) as AsyncGenerator<StreamEvent<Answer>>;
}
