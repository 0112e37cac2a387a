// The one script of the static site that `sjd export-web` writes (bundled by
// scripts/build-web.mjs into web/dist/sjd-site.js): in the page it starts a Web Worker from
// this same script and sends the page's API requests there (web/src/worker-transport.ts), then
// starts the page (web/src/main.ts); in that Worker it loads the site's models and answers them
// (src/web/site-worker.ts). Each side's modules load only in its own context.
if (typeof document === 'undefined') {
  const { startSiteWorker } = await import('../src/web/site-worker.ts');
  startSiteWorker();
} else {
  const { useTransport } = await import('./src/api.ts');
  const { workerTransport } = await import('./src/worker-transport.ts');
  useTransport(workerTransport(new Worker(import.meta.url, { type: 'module' })));
  await import('./src/main.ts');
}
