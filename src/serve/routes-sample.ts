// The unconditional sampling API of `sjd serve` (app:text8, app:cifar10-imagenet), for every task
// of the registry that samples unconditionally (text, images: a spec with sampleSteps,
// tasks/common/task-spec.ts): POST /api/<task>/sample answers whole (JSON), GET /api/<task>/stream
// streams each sampler step (Server-Sent Events). A run is `sjd sample <task>`'s for the same
// settings: the same seed gives the same samples (one batch of at most LIMITS.samples, through the
// one driver). A task's spec may take conditioning fields (text: a template, prompt / suffix /
// infill / length), checked against the served model: a bad one is a one-line 400 naming the field.
import type { FastifyInstance } from 'fastify';
import { taskSpecs } from '../tasks/registry.js';
import { sampleRun } from './answers.js';
import { refuseWhenFull, type ServeContext } from './context.js';
import { queuedSteps } from './run-steps.js';
import { type SampleRequest, sampleRequest } from './schemas.js';
import { need, servedSamplers } from './served.js';
import { streamSteps } from './sse.js';

export function sampleRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const onRequest = refuseWhenFull(ctx);
  for (const spec of taskSpecs().filter((s) => s.sampleSteps)) {
    const task = spec.name;
    const samplers = servedSamplers(ctx.served[task]);
    const fields = spec.conditioning?.fields ?? {};
    app.post(
      `/api/${task}/sample`,
      { onRequest, schema: { body: sampleRequest(samplers, 'body', fields) } },
      async (req, reply) => {
        return queuedSteps(
          ctx,
          reply,
          sampleRun(spec, need(ctx.served, task), req.body as SampleRequest),
        );
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
        await streamSteps(
          ctx,
          reply,
          sampleRun(spec, need(ctx.served, task), req.query as SampleRequest),
        );
      },
    );
  }
}
