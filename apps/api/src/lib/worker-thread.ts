/**
 * Starting a worker thread on one of this service's modules, compiled or not (the PGlite thread, the pass signer,
 * the mail layout compiler). A worker does not inherit the main thread's loader hooks on Node 20 nor on 22.13, the
 * oldest Node `engines` allows (22.23 and 24.22 do; tried for issue 42), so a thread cannot simply be given a `.ts`
 * file when the service runs from its source.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** True when the calling module runs from its TypeScript source (tsx: `npm run dev`, the in-process tests). */
export const fromSource = (moduleUrl: string) => moduleUrl.endsWith('.ts');

/**
 * Starts `name` (a module file name without its extension, e.g. `pglite.worker`) as a worker thread:
 * - `explicitFile` when given (the tests' bundle of this run, test/setup/server-bundle.ts);
 * - else `name.js` beside `moduleUrl` (the caller's `import.meta.url`) when the caller runs compiled (`dist/`, or the
 *   tests' server bundle, which puts the workers beside `server.js` under these names);
 * - else (dev) `name.ts` beside it through tsx, registered inside the thread (about 0.2 s of CPU a thread).
 */
export function startModuleThread(
  moduleUrl: string,
  name: string,
  options: WorkerOptions,
  explicitFile?: string | URL,
): Worker {
  if (explicitFile) return new Worker(explicitFile, options);
  if (!fromSource(moduleUrl)) return new Worker(fileURLToPath(new URL(`./${name}.js`, moduleUrl)), options);
  const entry = new URL(`./${name}.ts`, moduleUrl).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
