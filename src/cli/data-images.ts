// `sjd data images`: write a Fashion-MNIST split (Debian's dataset-fashion-mnist, or idx files in
// --from) as one image-set file for the image task (issue #14; the paper's image experiments,
// app:cifar10-imagenet): uint8 tokens [n, 1, 28, 28] reduced to --levels grey levels, labels.
import type { Command } from 'commander';
import { image, util } from '../index.js';
import { group, int, levels, oneOf } from './options.js';

interface DataImagesOpts {
  out: string;
  split: image.Split;
  levels: number;
  limit?: number;
  from: string;
  force?: boolean;
}

export function registerDataImages(program: Command): void {
  group(program, 'data', 'prepare data')
    .command('images')
    .description('write a Fashion-MNIST split as an image set (safetensors: images, labels)')
    .requiredOption('--out <file>', 'the file to write (e.g. fashion-train.safetensors)')
    .option('--split <name>', `split (${image.SPLITS.join(', ')})`, oneOf(image.SPLITS), 'train')
    .option('--levels <n>', 'grey levels, a power of two from 2 to 256', levels, 256)
    .option('--limit <n>', 'only the first N images', int(1, 10_000_000))
    .option('--from <dir>', 'folder of the idx files', image.FASHION_MNIST_DIR)
    .option('--force', 'replace an existing --out file')
    .action((o: DataImagesOpts) => {
      util.claimOutFile(o.out, o.force === true);
      const set = image.loadFashionMnist(o.split, o.from, { levels: o.levels, limit: o.limit });
      image.saveImageSet(o.out, set, `fashion-mnist ${o.split} (${o.from})`);
      console.log(
        `wrote ${o.out}: ${set.n} labelled images ${set.channels}x${set.height}x${set.width}, ${set.levels} levels (Fashion-MNIST ${o.split}, ${o.from})`,
      );
    });
}
