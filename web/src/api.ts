// The page's side of sjd serve's API (issue #15): JSON requests, and the stream of a sampling
// run read as Server-Sent Events from a fetch response (rather than EventSource, so that a
// refused request shows its status and one-line reason: 400 for a bad puzzle, 503 with
// Retry-After when the server is busy). The types mirror the server's answers
// (src/serve/step-event.ts, src/serve/routes-*.ts).

/** One sampler step: per site, the committed token (-1 while active), argmax, confidence, |y|. */
export interface StepEvent {
  step: number;
  t: number;
  nfe: number;
  tokens: number[];
  argmax: number[];
  confidence: number[];
  yNorm: number[];
}

export interface Defaults {
  sampler: string;
  nfe: number;
  temperature: number;
}

export interface Geometry {
  height: number;
  width: number;
  channels: number;
  levels: number;
}

export interface TaskInfo {
  available: boolean;
  reason?: string;
  samplers?: string[];
  defaults?: Defaults;
  length?: number;
  geometry?: Geometry;
  alphabet?: string;
  retries?: number; // Sudoku: a solve's default retries
}

export type TaskName = 'sudoku' | 'text' | 'image';

export interface Range {
  min: number;
  max: number;
}

export interface ModelsInfo {
  tasks: Record<TaskName, TaskInfo>;
  limits: { nfe: Range; temperature: Range; seed: Range; samples: Range; retries: Range };
  difficulties: string[];
}

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
    reason = ((await res.json()) as { error?: string }).error ?? reason;
  } catch {
    // not JSON: keep the status text
  }
  const retry = res.headers.get('retry-after');
  return new ApiError(res.status, retry ? `${reason} (retry after ${retry} s)` : reason);
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

export interface ServerEvent {
  event: string;
  data: unknown;
}

/** The events of a stream (event and JSON data of each block), until it ends or `signal` aborts. */
export async function* streamEvents(url: string, signal: AbortSignal): AsyncGenerator<ServerEvent> {
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
      if (data.length > 0) yield { event, data: JSON.parse(data.join('\n')) };
    }
  }
}
