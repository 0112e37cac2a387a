// The toy task of `sjd demo reverse`, which needs no trained model: a small transformer learns to
// reverse random token sequences by cross-entropy, in a few seconds on a CPU. It exercises the
// whole tensor stack (embedding, attention, AdamW, clipping, scopes) end to end.
import { setImmediate as turn } from 'node:timers/promises';
import { TokenClassifier } from '../../model/token-classifier.js';
import { AdamW, noGrad, TorchGenerator, tidy } from '../../torch/index.js';
import { crossEntropyStep } from '../../train/step.js';

export interface DemoOptions {
  steps: number;
  seed: number;
  length: number;
  vocab: number;
  log: (line: string) => void;
}

export interface DemoResult {
  losses: { step: number; loss: number }[];
  accuracy: number; // held-out token accuracy
  example: { input: number[]; output: number[] };
  seconds: number;
  parameters: number;
}

export async function runReverseDemo(o: DemoOptions): Promise<DemoResult> {
  const gen = new TorchGenerator(o.seed);
  const config = {
    length: o.length,
    dim: 64,
    depth: 2,
    heads: 4,
    mlpHidden: 128,
    classes: o.vocab,
  };
  const model = new TokenClassifier(o.vocab, config, gen);
  const opt = new AdamW(model.parameters(), { lr: 3e-3, weightDecay: 0.01 });
  o.log(
    `a ${config.depth}-layer transformer (width ${config.dim}, ${model.numParameters()} parameters) learns to reverse ${o.length}-token sequences`,
  );
  const losses: DemoResult['losses'] = [];
  const t0 = performance.now();
  const every = Math.max(1, Math.round(o.steps / 10));
  for (let step = 1; step <= o.steps; step++) {
    const loss = tidy(() => {
      const x = gen.randint(0, o.vocab, [32, o.length]); // [B, L]
      const lr = 3e-3 * Math.min(1, step / 50); // warmup
      return crossEntropyStep(() => model.forward(x), x.flip([1]), opt, { clip: 1, lr });
    });
    if (step === 1 || step % every === 0) {
      losses.push({ step, loss });
      o.log(`step ${String(step).padStart(5)}  loss ${loss.toFixed(4)}`);
      await turn(); // let finalisers run and signals arrive
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  model.eval();
  const { accuracy, example } = tidy(() =>
    noGrad(() => {
      const x = gen.randint(0, o.vocab, [256, o.length]);
      const pred = model.forward(x).argmax(-1); // [B, L]
      return {
        accuracy: pred
          .eq(x.flip([1]))
          .to('float64')
          .mean()
          .item(),
        example: { input: x.select(0, 0).toArray(), output: pred.select(0, 0).toArray() },
      };
    }),
  );
  return { losses, accuracy, example, seconds, parameters: model.numParameters() };
}
