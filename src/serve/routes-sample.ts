// The unconditional sampling API of `sjd serve` (app:text8, app:cifar10-imagenet), for every task
// of the registry that samples unconditionally (text, images: a spec with sampleSteps,
// tasks/common/task-spec.ts): POST /api/<task>/sample answers whole (JSON), GET /api/<task>/stream
// streams each sampler step (Server-Sent Events). A run is `sjd sample <task>`'s for the same
// settings: the same seed gives the same samples (one batch of at most LIMITS.samples, through the
// one driver). A task's spec may take conditioning fields (text: a template, prompt / suffix /
// infill / length), checked against the served model: a bad one is a one-line 400 naming the field.
import type { FastifyInstance } from 'fastify';
import type { TrajectoryStep } from '../sampling/index.js';
import { type TaskSpec, taskSpecs } from '../tasks/registry.js';
import type { SampleSettings } from './api-types.js';
import { need, refuseWhenFull, type ServeContext, servedSamplers, settingsOf } from './context.js';
import { HttpError } from './errors.js';
import { queuedSteps, type StepRun } from './run-steps.js';
import { type SampleRequest, sampleRequest } from './schemas.js';
import { streamSteps } from './sse.js';

/** The run for a request; it returns its answer's JSON (TextSampleAnswer, ImageSampleAnswer). */
function run(
  ctx: ServeContext,
  spec: TaskSpec,
  q: SampleRequest,
): StepRun<TrajectoryStep, SampleSettings & { nfe_used: number }> {
  const m = need(ctx, spec.name);
  const settings: SampleSettings = { ...settingsOf(m, q), n: q.n ?? 1 };
  const sampleSteps = spec.sampleSteps!;
  let condition: unknown;
  try {
    condition = spec.conditioning?.parse(m, q);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
  return {
    nfe: settings.nfe,
    start: function* () {
      const r = yield* sampleSteps(m, settings, condition);
      return { ...settings, ...r.answer, nfe_used: r.nfe };
    },
  };
}

export function sampleRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const onRequest = refuseWhenFull(ctx);
  for (const spec of taskSpecs().filter((s) => s.sampleSteps)) {
    const task = spec.name;
    const samplers = servedSamplers(ctx.served[task]!);
    const fields = spec.conditioning?.fields ?? {};
    app.post(
      `/api/${task}/sample`,
      { onRequest, schema: { body: sampleRequest(samplers, 'body', fields) } },
      async (req, reply) => {
        return queuedSteps(ctx, reply, run(ctx, spec, req.body as SampleRequest));
      },
    );
    app.get(
      `/api/${task}/stream`,
      {
        onRequest: [ctx.streams.admit, onRequest],
        sse: 'only',
        schema: { querystring: sampleRequest(samplers, 'query', fields) },
      },
      async (req, reply) => {
        await streamSteps(ctx, reply, run(ctx, spec, req.query as SampleRequest));
      },
    );
  }
}
