/**
 * MJML off the event loop (issue 44). Loading MJML took about 0.4 s of main-thread CPU on an idle machine (several
 * seconds on a loaded one) on the first mail after a start, and each new layout shape some milliseconds more: long
 * enough for load shedding to refuse every `/v1` request of the next sample window (the quick start's first
 * sign-in answered 503 `api.busy` in CI). Layouts are compiled on one worker thread instead:
 * - the thread starts on the first layout (an instance that sends no mail starts none and never holds MJML's
 *   ~20 MiB, decision 041), and ends after `idleMs` without a layout (the next one starts it again);
 * - it never keeps the process alive (unref'd), and {@link MjmlCompiler.close} ends it;
 * - a thread that dies fails the layouts it was compiling (the caller's cache forgets them) and the next layout
 *   starts a new one.
 * Running from the TypeScript source (`npm run dev`, the in-process tests) with no explicit worker file, layouts are
 * compiled in place: a thread would cost tsx's start (lib/worker-thread.ts) in every test file that sends a mail.
 */
import type { Worker } from 'node:worker_threads';
import type mjml2html from 'mjml';
import { fromSource, startModuleThread } from '../../lib/worker-thread.js';

/** A layout to compile, as posted to the thread. */
export interface MjmlRequest {
  id: number;
  source: string;
}
/** The thread's answer: the HTML, or MJML's error message (a bug in the layout, never a mail's content). */
export type MjmlReply = { id: number; html: string } | { id: number; error: string };

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
 * A compiler (see the module comment).
 * @param opts.workerFile the thread's module (the tests' bundle); default `mail-layout.worker.js` beside this module
 * @param opts.idleMs milliseconds without a layout after which the thread ends (default 60,000)
 */
export function createMjmlCompiler(opts: { workerFile?: string; idleMs?: number } = {}): MjmlCompiler {
  if (!opts.workerFile && fromSource(import.meta.url))
    return { compile: compileMjmlInPlace, close: () => Promise.resolve() };
  const idleMs = opts.idleMs ?? 60_000;
  const pending = new Map<number, { resolve: (html: string) => void; reject: (err: Error) => void }>();
  let thread: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const start = (): Worker => {
    const worker = startModuleThread(import.meta.url, 'mail-layout.worker', {}, opts.workerFile);
    worker.unref();
    worker.on('message', (reply: MjmlReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('html' in reply) p.resolve(reply.html);
      else p.reject(new Error(reply.error));
      if (pending.size === 0) idleTimer = setTimeout(() => void stop(), idleMs).unref();
    });
    const gone = (err: Error) => {
      if (thread !== worker) return;
      thread = null;
      failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the mail layout thread exited (${code})`)));
    return worker;
  };
  const stop = async () => {
    const worker = thread;
    thread = null;
    if (idleTimer) clearTimeout(idleTimer);
    failAll(new Error('the mail layout compiler closed'));
    await worker?.terminate();
  };

  return {
    compile(source) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      thread ??= start();
      const id = nextId++;
      const html = new Promise<string>((resolve, reject) => pending.set(id, { resolve, reject }));
      thread.postMessage({ id, source } satisfies MjmlRequest);
      return html;
    },
    close: stop,
  };
}
