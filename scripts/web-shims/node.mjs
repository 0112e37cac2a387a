// Node's modules in sjd's browser bundle (scripts/build-web.mjs): every name the library imports
// from them. The browser paths of the library call only the few that work here (the path
// helpers, a thread count, timers, util.inspect's symbol); the rest throw, naming what is missing,
// should a browser path ever reach them.
const missing = (name) => () => {
  throw new Error(`${name} is not available in a browser`);
};

// ---- path (POSIX) ----
const norm = (p) => {
  const abs = p.startsWith('/');
  const out = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && out.length && out.at(-1) !== '..') out.pop();
    else if (s !== '..' || !abs) out.push(s);
  }
  return (abs ? '/' : '') + out.join('/') || (abs ? '/' : '.');
};
export const sep = '/';
export const join = (...parts) => norm(parts.filter((x) => x !== '').join('/'));
export const resolve = (...parts) =>
  norm(parts.reduce((a, p) => (p.startsWith('/') ? p : `${a}/${p}`), '/'));
export const dirname = (p) => norm(p.replace(/\/[^/]*\/?$/, '') || (p.startsWith('/') ? '/' : '.'));
export const basename = (p, ext) => {
  const b = p.replace(/\/+$/, '').replace(/.*\//, '');
  return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b;
};
export const relative = (from, to) => {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
};

// ---- os, timers, util ----
export const availableParallelism = () => 1;
export const hostname = () => 'browser';
export const freemem = () => 0;
export const tmpdir = () => '/tmp';
export const setImmediate = (value) => new Promise((r) => setTimeout(() => r(value), 0));
const timeout = (ms, value) => new Promise((r) => globalThis.setTimeout(() => r(value), ms));

export { timeout as setTimeout };
export const inspect = Object.assign(missing('util.inspect'), {
  custom: Symbol.for('nodejs.util.inspect.custom'),
});
export const isDeepStrictEqual = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export class StringDecoder {
  #d = new TextDecoder();
  write(b) {
    return this.#d.decode(b, { stream: true });
  }
  end(b) {
    return this.#d.decode(b);
  }
}

// ---- fs, crypto, module, child_process, http: files, processes and servers ----
export const constants = {};
export const accessSync = missing('fs.accessSync');
export const appendFileSync = missing('fs.appendFileSync');
export const closeSync = missing('fs.closeSync');
export const existsSync = () => false;
export const mkdirSync = missing('fs.mkdirSync');
export const openSync = missing('fs.openSync');
export const readFileSync = missing('fs.readFileSync');
export const readSync = missing('fs.readSync');
export const readdirSync = missing('fs.readdirSync');
export const realpathSync = missing('fs.realpathSync');
export const renameSync = missing('fs.renameSync');
export const rmSync = missing('fs.rmSync');
export const statSync = missing('fs.statSync');
export const unlinkSync = missing('fs.unlinkSync');
export const writeFileSync = missing('fs.writeFileSync');
export const writeSync = missing('fs.writeSync');
export const createHash = missing('crypto.createHash');
export const randomBytes = missing('crypto.randomBytes');
export const createRequire = () => missing('require');
export const execFileSync = missing('child_process.execFileSync');
export const spawn = missing('child_process.spawn');
export const createServer = missing('http.createServer');
export default {};
