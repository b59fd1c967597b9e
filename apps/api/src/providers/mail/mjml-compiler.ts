/**
 * MJML off the event loop (issue 44): mail layouts are compiled on a task thread (lib/task-thread.ts,
 * `mail-layout.worker.ts`). Loading MJML took about 0.4 s of main-thread CPU on an idle machine (several seconds on
 * a loaded one) on the first mail after a start, and each new layout shape some milliseconds more: the quick start's
 * first sign-in answered 503 `api.busy` in CI. The thread holds MJML's ~20 MiB only while it runs (decision 041).
 */
import type mjml2html from 'mjml';
import { createTaskThread } from '../../lib/task-thread.js';

/** Compiles MJML documents to HTML. */
export interface MjmlCompiler {
  /** The HTML of `source` (strict validation, no web fonts). @throws Error with MJML's message */
  compile(source: string): Promise<string>;
  /** Ends the thread, if one runs; compiles still pending fail. */
  close(): Promise<void>;
}

let mjml: Promise<typeof mjml2html> | null = null;

/**
 * Compiles on the calling thread (the worker's own work, and the fallback from source). MJML is loaded on the first
 * call. `fonts: {}`: MJML otherwise adds a Google Fonts <link> (and @import) for each web font it recognises in the
 * font list (Roboto here), so a mail client that loads remote content would tell Google who opened the mail (issue
 * 41, point 9); the list falls back to the reader's own system fonts.
 * @throws Error when MJML reports an error (strict validation)
 */
export async function compileMjmlInPlace(source: string): Promise<string> {
  const render = await (mjml ??= import('mjml').then((m) => m.default));
  // MJML 5 answers a promise (4 answered the result): awaited either way.
  return (await render(source, { validationLevel: 'strict', fonts: {} })).html;
}

/**
 * A compiler on its thread (lib/task-thread.ts).
 * @param opts.workerFile the thread's module (the tests' bundle); default `mail-layout.worker.js` beside this module
 * @param opts.idleMs milliseconds without a layout after which the thread ends (default 60,000)
 */
export function createMjmlCompiler(opts: { workerFile?: string; idleMs?: number } = {}): MjmlCompiler {
  const thread = createTaskThread({
    moduleUrl: import.meta.url,
    name: 'mail-layout.worker',
    inPlace: compileMjmlInPlace,
    ...opts,
  });
  return { compile: (source) => thread.run(source), close: () => thread.close() };
}
