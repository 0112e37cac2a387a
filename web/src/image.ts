// The image panel (app:cifar10-imagenet): sample a few images and watch the pixel grid settle.
// Committed pixels show their grey level (or colour); active ones show the classifier's current
// argmax tinted red, the more the less sure the classifier is. Tokens are site-major:
// token (row * W + col) * C + channel. Download saves the images side by side as a PNG.
import type { ImageSampleAnswer, ModelsInfo, ServedTask, StepEvent } from './api.js';
import { RunPanel } from './run-panel.js';
import { fillSettings, formQuery } from './settings.js';

export function setupImage(section: HTMLElement, info: ServedTask, models: ModelsInfo): void {
  const g = info.geometry!;
  const form = section.querySelector<HTMLFormElement>('form')!;
  const out = section.querySelector<HTMLElement>('.images')!;
  fillSettings(section.querySelector('fieldset')!, info, models);
  const sites = g.height * g.width;

  const draw = (s: StepEvent) => {
    const n = s.tokens.length / (sites * g.channels);
    while (out.children.length > n) out.lastChild!.remove();
    while (out.children.length < n) {
      const c = document.createElement('canvas');
      Object.assign(c, { width: g.width, height: g.height });
      out.append(c);
    }
    for (let b = 0; b < n; b++) {
      const canvas = out.children[b] as HTMLCanvasElement;
      const ctx = canvas.getContext('2d')!;
      const img = ctx.createImageData(g.width, g.height);
      for (let p = 0; p < sites; p++) {
        let tint = 0; // 0 for a committed pixel; active ones more red the less sure
        const rgb = [0, 1, 2].map((k) => {
          const i = (b * sites + p) * g.channels + Math.min(k, g.channels - 1);
          const committed = s.tokens[i]! >= 0;
          if (!committed) tint = Math.max(tint, 0.15 + 0.45 * (1 - s.confidence[i]!));
          return (255 * (committed ? s.tokens[i]! : Math.max(s.argmax[i]!, 0))) / (g.levels - 1);
        });
        const [r, gr, bl] = rgb.map((v) => v * (1 - tint)) as [number, number, number];
        img.data.set([r + 255 * tint, gr, bl, 255], 4 * p);
      }
      ctx.putImageData(img, 0, 0);
    }
  };

  // the images side by side, one pixel a pixel, as a PNG
  const result = async () => {
    const canvases = Array.from(out.children) as HTMLCanvasElement[];
    const all = document.createElement('canvas');
    Object.assign(all, { width: canvases.length * (g.width + 1) - 1, height: g.height });
    const ctx = all.getContext('2d')!;
    canvases.forEach((c, k) => {
      ctx.drawImage(c, k * (g.width + 1), 0);
    });
    const blob = await new Promise<Blob>((ok, fail) =>
      all.toBlob((b) => (b ? ok(b) : fail(new Error('the browser made no PNG'))), 'image/png'),
    );
    return { name: 'samples.png', blob };
  };
  const panel = new RunPanel<ImageSampleAnswer>(section, { draw, done: () => {}, result });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void panel.run(`/api/image/stream?${formQuery(form)}`);
  });
}
