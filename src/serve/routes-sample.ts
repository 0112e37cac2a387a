// The unconditional sampling API of `sjd serve` for text and images (issue #15; app:text8,
// app:cifar10-imagenet): POST /api/<task>/sample answers whole (JSON), GET /api/<task>/stream
// streams each sampler step (Server-Sent Events). A run is `sjd sample text` / `sjd sample
// image`'s for the same settings: the same seed gives the same samples (one batch of at most
// LIMITS.samples, through the one driver).
import type { FastifyInstance } from 'fastify';
import type { TrajectoryStep } from '../sampling/index.js';
import { sampleImageSteps } from '../tasks/image/sample.js';
import { sampleTextSteps } from '../tasks/text/sample.js';
import type { ImageSampleAnswer, SampleSettings, TaskName, TextSampleAnswer } from './api-types.js';
import { need, refuseWhenFull, type ServeContext, servedSamplers, settingsOf } from './context.js';
import { queuedSteps, type StepRun } from './run-steps.js';
import { type SampleRequest, sampleRequest } from './schemas.js';
import { streamSteps } from './sse.js';

type SampleTask = Extract<TaskName, 'text' | 'image'>;

/** The run for a request; it returns its answer's JSON. */
function run(
  ctx: ServeContext,
  task: SampleTask,
  q: SampleRequest,
): StepRun<TrajectoryStep, TextSampleAnswer | ImageSampleAnswer> {
  const m = need(ctx, task);
  const settings: SampleSettings = { ...settingsOf(m, q), n: q.n ?? 1 };
  if (task === 'text')
    return {
      nfe: settings.nfe,
      start: function* () {
        const r = yield* sampleTextSteps(m.model, m.process, settings);
        return { ...settings, texts: r.texts, nfe_used: r.nfe };
      },
    };
  const g = m.geometry!;
  return {
    nfe: settings.nfe,
    start: function* () {
      const r = yield* sampleImageSteps(m.model, m.process, g, settings);
      const size = g.channels * g.height * g.width;
      const images = Array.from({ length: settings.n }, (_, i) =>
        Array.from(r.images.subarray(i * size, (i + 1) * size)),
      ); // [n][C * H * W] grey levels
      return { ...settings, geometry: g, images, nfe_used: r.nfe };
    },
  };
}

export function sampleRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const onRequest = refuseWhenFull(ctx);
  for (const task of ['text', 'image'] as const) {
    const samplers = servedSamplers(ctx.served[task]);
    app.post(
      `/api/${task}/sample`,
      { onRequest, schema: { body: sampleRequest(samplers, 'body') } },
      async (req, reply) => {
        return queuedSteps(ctx, reply, run(ctx, task, req.body as SampleRequest));
      },
    );
    app.get(
      `/api/${task}/stream`,
      {
        onRequest: [ctx.streams.admit, onRequest],
        sse: 'only',
        schema: { querystring: sampleRequest(samplers, 'query') },
      },
      async (req, reply) => {
        await streamSteps(ctx, reply, run(ctx, task, req.query as SampleRequest));
      },
    );
  }
}
