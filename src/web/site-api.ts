// `sjd serve`'s API answered inside a browser, for the static site's page (site-worker.ts runs
// it in a Web Worker): the same URLs and queries, checked by the server's schemas (schemas.ts),
// answered by the server's code (served.ts, answers.ts) over models loaded from bytes, each
// refusal with the status and one-line reason the server gives. A stream runs its sampler a step
// at a time (run-steps.ts runSteps), turning the event loop between steps so that a cancel
// message is read; a cancelled run stops at its next step and frees its tensors.

import type { TrajectoryStep } from '../sampling/index.js';
import { generatePuzzle, sampleRun, solveRun } from '../serve/answers.js';
import type { StreamEvent } from '../serve/api-types.js';
import { errorAnswer, HttpError } from '../serve/http-error.js';
import { CancelledError } from '../serve/job-queue.js';
import { runSteps, type StepRun } from '../serve/run-steps.js';
import { generateRequest, parseRequest, sampleRequest, solveRequest } from '../serve/schemas.js';
import { modelsInfo, need, type Served, servedSamplers } from '../serve/served.js';
import { stepEvent } from '../serve/step-event.js';
import { TASK_SERVINGS } from '../tasks/serving.js';
import type { SiteAnswer } from './site-protocol.js';

/** A request's answers go out through this, each with the request's id. */
export type Post = (answer: SiteAnswer) => void;

/** The path and the query fields of a URL (a page's API URL, absolute or from the root). */
function parseUrl(url: string): { path: string; query: Record<string, string> } {
  const u = new URL(url, 'http://site/');
  return { path: u.pathname, query: Object.fromEntries(u.searchParams) };
}

/** The value of a request's fields by its schema, or a 400 naming the field. */
function checked<T>(schema: Parameters<typeof parseRequest<T>>[0], data: unknown): T {
  const r = parseRequest(schema, data);
  if (r.error) throw new HttpError(400, r.error.message);
  return r.value as T;
}

const TASKS = Object.values(TASK_SERVINGS);

/** The run a stream URL asks for, its request checked as the server checks it. */
function streamRun(served: Served, path: string, query: Record<string, string>) {
  if (path === '/api/sudoku/stream') {
    const q = checked(solveRequest(servedSamplers(served.sudoku), 'query'), query);
    return solveRun(need(served, 'sudoku'), q);
  }
  const spec = TASKS.find((s) => s.sampleSteps && path === `/api/${s.name}/stream`);
  if (!spec) throw new HttpError(404, `no such path: GET ${path}`);
  const fields = spec.conditioning?.fields ?? {};
  const q = checked(sampleRequest(servedSamplers(served[spec.name]), 'query', fields), query);
  return sampleRun(spec, need(served, spec.name), q);
}

/** The JSON a URL answers with. */
function json(served: Served, path: string, query: Record<string, string>): unknown {
  if (path === '/api/models') return modelsInfo(TASKS, served);
  if (path === '/api/sudoku/generate') return generatePuzzle(checked(generateRequest, query));
  throw new HttpError(404, `no such path: GET ${path}`);
}

/** A refusal as the server sends it: its status (500 for an error of no kind) and one line. */
const refusal = (id: number, e: unknown): SiteAnswer => ({
  id,
  refused: {
    status: e instanceof HttpError ? e.statusCode : 500,
    ...errorAnswer(e instanceof HttpError ? e.message : `internal error: ${(e as Error).message}`),
  },
});

/**
 * Answers request `id` for `url` on `post`: JSON, or (`stream`) each sampler step, then the
 * answer or why the run failed, then `end`. Until the first step a failure is a refusal; a run
 * `signal` aborts ends with `end` alone.
 */
export async function answer(
  served: Served,
  id: number,
  url: string,
  stream: boolean,
  signal: AbortSignal,
  post: Post,
): Promise<void> {
  const { path, query } = parseUrl(url);
  if (!stream) {
    try {
      post({ id, json: json(served, path, query) });
    } catch (e) {
      post(refusal(id, e));
    }
    return;
  }
  let stepped = false;
  const send = (event: StreamEvent<unknown>) => post({ id, event });
  try {
    const run: StepRun<TrajectoryStep, unknown> = streamRun(served, path, query);
    const r = await runSteps(run.start(), signal, (s, k) => {
      stepped = true;
      send({ event: 'step', data: stepEvent(s, k) });
    });
    send({ event: 'done', data: r });
  } catch (e) {
    if (e instanceof CancelledError || signal.aborted) {
      // cancelled: nothing more to say
    } else if (!stepped) {
      post(refusal(id, e));
      return;
    } else send({ event: 'error', data: errorAnswer((e as Error).message) });
  }
  post({ id, end: true });
}
