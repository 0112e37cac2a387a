// A CommonJS package loaded on its first use rather than at import. The command line loads the
// whole library at every start, so a package imported at the top of a module is paid for by
// every command, `sjd --help` included; the heavy ones that only some commands use (the web
// server, the image decoder, the PNG codec, the progress bar, the normal distribution's
// functions) are loaded through this when first called.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A loader of the package `name`: its module.exports on the first call, the same after. */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
