// A token-in, logits-out transformer: an embedding table in front of the Backbone. The model
// of the tensor benchmarks and the demo; the SJD denoisers put the corrupted state y in front
// of the same Backbone instead.
import { nn, type Tensor, type TorchGenerator } from '../torch/index.js';
import { Backbone, type BackboneConfig } from './backbone.js';

export class TokenClassifier extends nn.Module {
  readonly embed: nn.Embedding; // [V, d]
  readonly backbone: Backbone;

  constructor(
    readonly vocab: number,
    config: BackboneConfig,
    gen: TorchGenerator,
  ) {
    super();
    this.embed = this.child('embed', new nn.Embedding(vocab, config.dim, { gen, std: 0.02 }));
    this.backbone = this.child('backbone', new Backbone(config, gen));
  }

  /** tokens [B, L] int64 -> logits [B, L, K] */
  forward(tokens: Tensor): Tensor {
    return this.backbone.forward(this.embed.forward(tokens));
  }
}
