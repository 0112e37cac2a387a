// `sjd data images`: write an image set file for the image task (the paper's image experiments,
// app:cifar10-imagenet; docs/images.md has the format): uint8 tokens [n, C, H, W] reduced to
// --levels levels per channel, with labels where the source has them. The source (--from) is
// told by what it holds: Fashion-MNIST's idx files (the default: Debian's dataset-fashion-mnist),
// CIFAR-10's binary batches (a folder or one .bin), or a folder of PNG, JPEG, WebP and TIFF images (resized
// and centre-cropped to --resize, grey or RGB by --channels; labelled by class subfolders). The
// earlier spelling --size (a preset in `sjd train`) is still taken, unlisted.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { image, util } from '../../index.js';
import { group, int, levels, oneOf } from '../options.js';
import { progress } from '../progress.js';

interface DataImagesOpts {
  out: string;
  split: image.Split;
  levels: number;
  limit?: number;
  from: string;
  resize?: [number, number];
  size?: [number, number]; // --resize's earlier name
  channels?: '1' | '3';
  force?: boolean;
}

/** `--resize HxW`: a height and width from 1 to 4096. */
function sizeArg(v: string): [number, number] {
  const m = /^(\d+)x(\d+)$/.exec(v);
  const hw = m ? ([Number(m[1]), Number(m[2])] as [number, number]) : null;
  if (!hw || hw.some((d) => d < 1 || d > 4096))
    throw new InvalidArgumentError(`--resize must be HxW with each from 1 to 4096 (e.g. 32x32)`);
  return hw;
}

/** The set a source holds, and a line naming it. */
async function readSource(o: DataImagesOpts): Promise<{ set: image.ImageSet; about: string }> {
  const resize = o.resize ?? o.size;
  const folderOnly = resize !== undefined || o.channels !== undefined;
  if (o.from !== image.FASHION_MNIST_DIR && !existsSync(o.from))
    throw new Error(`--from ${o.from}: no such file or folder`);
  if (image.isImageFolder(o.from) && !existsSync(`${o.from}/train-images-idx3-ubyte.gz`)) {
    let bar: ReturnType<typeof progress> | undefined;
    const set = await image.readImageFolder(o.from, {
      size: resize,
      channels: o.channels === undefined ? undefined : (Number(o.channels) as 1 | 3),
      levels: o.levels,
      limit: o.limit,
      progress: (done, total) => {
        bar ??= progress(`reading ${total} images`, total, 'images');
        bar.update(done);
      },
    });
    bar?.stop();
    const classes = set.classes
      ? `${set.classes.length} classes (${set.classes.slice(0, 4).join(', ')}${set.classes.length > 4 ? ', ...' : ''})`
      : 'unlabelled';
    return { set, about: `${o.from}: ${classes}` };
  }
  if (folderOnly) throw new Error('--resize and --channels go with a folder of PNG or JPEG images');
  if (image.isCifar10(o.from)) {
    const set = image.readCifar10(image.cifarFiles(o.from, o.split), {
      levels: o.levels,
      limit: o.limit,
    });
    return { set, about: `cifar-10 ${o.split} (${o.from})` };
  }
  if (o.from !== image.FASHION_MNIST_DIR && !existsSync(join(o.from, 'train-images-idx3-ubyte.gz')))
    throw new Error(
      `--from ${o.from}: no PNG or JPEG images (directly or in class folders), CIFAR-10 batches or Fashion-MNIST files there`,
    );
  const set = image.loadFashionMnist(o.split, o.from, { levels: o.levels, limit: o.limit });
  return { set, about: `fashion-mnist ${o.split} (${o.from})` };
}

export function registerData(program: Command): void {
  group(program, 'data', 'prepare data')
    .command('images')
    .description(
      'write an image set (safetensors: images, labels) from Fashion-MNIST, CIFAR-10 batches or a folder of PNG/JPEG images',
    )
    .requiredOption('--out <file>', 'the file to write (e.g. fashion-train.safetensors)')
    .option(
      '--from <path>',
      "Fashion-MNIST's idx folder, CIFAR-10's batches (folder or .bin), or a folder of images",
      image.FASHION_MNIST_DIR,
    )
    .option(
      '--split <name>',
      `split of Fashion-MNIST or CIFAR-10 (${image.SPLITS.join(', ')})`,
      oneOf(image.SPLITS),
      'train',
    )
    .option('--levels <n>', 'levels per channel, a power of two from 2 to 256', levels, 256)
    .option('--limit <n>', 'only the first N images', int(1, 10_000_000))
    .option(
      '--resize <HxW>',
      'images: resize to cover H x W and crop the centre (default: all as the first)',
      sizeArg,
    )
    .addOption(new Option('--size <HxW>', "--resize's earlier name").argParser(sizeArg).hideHelp())
    .option(
      '--channels <n>',
      'images: 1 (grey) or 3 (RGB; default when any image has colour)',
      oneOf(['1', '3']),
    )
    .option('--force', 'replace an existing --out file')
    .action(async (o: DataImagesOpts) => {
      util.claimOutFile(o.out, o.force === true);
      const { set, about } = await readSource(o);
      image.saveImageSet(o.out, set, about);
      console.log(
        `wrote ${o.out}: ${set.n} ${set.labels ? 'labelled' : 'unlabelled'} images ${set.channels}x${set.height}x${set.width}, ${set.levels} levels (${about})`,
      );
    });
}
