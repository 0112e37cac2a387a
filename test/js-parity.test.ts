// The TypeScript backend against libtorch on the three shipped models, in one process
// (torch.withBackend): the classifier's logits from the same inputs (states drawn by the forward
// process, Alg. 1, from the same tokens) at several times agree to 1e-5 relative (to the logits'
// largest magnitude); and every sampler each model's process runs takes its first steps from the
// same seed with the classifier seeing the same states (the same argmax, confidences within
// 1e-4) and the same tokens committed, until a categorical draw: libtorch's multinomial has its
// own recipe, which this backend does not copy (its uniforms and normals it does), so a sampler
// drawing tokens categorically (text's confidence and adaptive samplers here) parts there, as
// docs/design.md §3b says. Each task's default sampler never parts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { networkLength } from '../src/model/network.js';
import { corrupt } from '../src/process/corrupt.js';
import { sampleBatchSteps, unconditionalSampling } from '../src/sampling/batched.js';
import type { SamplerName } from '../src/sampling/index.js';
import { samplersFor } from '../src/sampling/index.js';
import { modelClassifier } from '../src/sampling/model-classifier.js';
import { TASK_SPECS } from '../src/tasks/registry.js';
import type { TaskModel } from '../src/tasks/serving.js';
import {
  type BackendName,
  noGrad,
  TorchGenerator,
  tensor,
  tidy,
  withBackend,
} from '../src/torch/index.js';

const TASKS = ['sudoku', 'text', 'image'] as const;
const TIMES = [0.2, 0.5, 0.8];
const B = 2;

/** The shipped model of `task`, loaded on `backend`, and what `f` makes of it there. */
const on = <T>(backend: BackendName, task: string, f: (m: TaskModel) => T): T =>
  withBackend(backend, () => f(TASK_SPECS[task]!.load()));

/** Tokens x0 [B, L] the same on both backends (a fixed integer sequence below K). */
const tokensOf = (L: number, K: number) =>
  Array.from({ length: B * L }, (_, i) => (i * 7 + ((i * i) % 11)) % K);

for (const task of TASKS)
  test(`the shipped ${task} model's logits agree on both backends at t = ${TIMES.join(', ')}`, () => {
    // the states, drawn once on libtorch: y [B, L, d] and the committed sites [B, L]
    const states = on('torch', task, (m) =>
      TIMES.map((t) =>
        tidy(() => {
          const L = networkLength(m.model);
          const anchors = m.model.anchors.forward(); // [K, d]
          const K = anchors.size(0);
          const x0 = tensor(tokensOf(L, K), [B, L], 'int64');
          const c = noGrad(() =>
            corrupt(m.process, x0, anchors, new Float64Array(B).fill(t), new TorchGenerator(3)),
          );
          return {
            t,
            shape: c.y.shape,
            y: Float32Array.from(c.y.to('float32').data() as Float32Array),
            stuck: Array.from(c.stuck.data() as Uint8Array),
          };
        }),
      ),
    );
    const logits = (backend: BackendName) =>
      on(backend, task, (m) =>
        states.map((s) =>
          tidy(() => {
            const y = tensor(s.y, s.shape, 'float32');
            const committed = tensor(Uint8Array.from(s.stuck), [B, s.shape[1]!], 'bool');
            const out = modelClassifier(m.model)(y, s.t, committed);
            return Float32Array.from(out.to('float32').data() as Float32Array);
          }),
        ),
      );
    const want = logits('torch');
    const got = logits('js');
    for (const [k, s] of states.entries()) {
      const w = want[k]!;
      const g = got[k]!;
      assert.equal(g.length, w.length);
      let scale = 0;
      for (const v of w) scale = Math.max(scale, Math.abs(v));
      let worst = 0;
      for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(g[i]! - w[i]!));
      assert.ok(worst <= 1e-5 * scale, `t = ${s.t}: ${worst} off at logits up to ${scale}`);
    }
  });

const STEPS = 3;

for (const task of TASKS)
  test(`every sampler of the shipped ${task} model takes the same first ${STEPS} steps on both backends`, () => {
    const names = on('torch', task, (m) => samplersFor(m.process));
    const steps = (backend: BackendName, sampler: SamplerName) =>
      on(backend, task, (m) => {
        const o = unconditionalSampling(m.process, { n: B, nfe: 16, seed: 5, sampler });
        const run = sampleBatchSteps(m.model, m.process, { ...o, batchSize: B });
        const out = [];
        for (let k = 0; k <= STEPS; k++) {
          const r = run.next();
          if (r.done) break;
          out.push(r.value);
        }
        run.return(undefined as never);
        return out;
      });
    const drawn: string[] = []; // samplers whose categorical draws parted the runs
    for (const sampler of names) {
      const want = steps('torch', sampler);
      const got = steps('js', sampler);
      assert.equal(got.length, want.length, sampler);
      for (const [k, w] of want.entries()) {
        const g = got[k]!;
        const where = `${sampler}, step ${k}`;
        // the classifier saw the same state: the same argmax and confidences
        assert.deepEqual(Array.from(g.argmax), Array.from(w.argmax), `${where}: argmax`);
        for (let i = 0; i < w.confidence.length; i++)
          assert.ok(
            Math.abs(g.confidence[i]! - w.confidence[i]!) <= 1e-4,
            `${where}: confidence ${g.confidence[i]} against ${w.confidence[i]}`,
          );
        if (Array.from(g.tokens).join() !== Array.from(w.tokens).join()) {
          drawn.push(`${sampler} at step ${k}`);
          break;
        }
      }
    }
    // the task's own sampler (the commands' default) draws nothing categorical here
    const own = on('torch', task, (m) => TASK_SPECS[task]!.sampling.sampler(m.process));
    assert.ok(!drawn.some((d) => d.startsWith(`${own} `)), `${own} parted: ${drawn.join('; ')}`);
  });
