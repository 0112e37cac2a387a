// Where this installation of sjd is: the folder that holds its package.json, models/ and build/
// (dist/src/util/package-root.js -> <package>/), whether a checkout or node_modules/sjd.
export const PACKAGE_ROOT = new URL('../../../', import.meta.url).pathname;
