// Runs bench/torch_ref.py's `forward`: the same network in Debian's PyTorch on weights and inputs
// written here as safetensors; returns its logits. Shared by the cross-checks against PyTorch.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as torch from '../src/torch/index.js';
import { tempDir } from './tmp.js';

export const ref = new URL('../../bench/torch_ref.py', import.meta.url).pathname;

export function pytorchForward(
  weights: Record<string, torch.Tensor>,
  inputs: Record<string, torch.Tensor>,
  config: object,
): torch.Tensor {
  const dir = tempDir('sjd-ref-');
  torch.saveSafetensors(join(dir, 'w.safetensors'), weights, { producer: 'sjd' });
  torch.saveSafetensors(join(dir, 'in.safetensors'), inputs);
  execFileSync('/usr/bin/python3', [
    ref,
    'forward',
    '--weights',
    join(dir, 'w.safetensors'),
    '--tokens',
    join(dir, 'in.safetensors'),
    '--config',
    JSON.stringify(config),
    '--out',
    join(dir, 'o.safetensors'),
  ]);
  return torch.loadSafetensors(join(dir, 'o.safetensors')).tensors.logits!;
}
