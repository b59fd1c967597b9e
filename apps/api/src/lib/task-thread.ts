/**
 * One worker thread for one kind of CPU-bound task, so that it never runs on the event loop (issue 44): the mail
 * layouts' MJML compile (providers/mail/mjml-compiler.ts) and the resale code's PDF (modules/resale/resale.pdf.ts).
 * Loading MJML held the loop about 0.4 s on the first mail after a start, pdfkit and fontkit about 0.2 s on the first
 * PDF (seconds on a loaded machine): long enough for load shedding to refuse the next window's requests.
 * - The thread starts on the first task (an instance that never runs one starts none and never holds the module's
 *   libraries) and ends after `idleMs` without one; the next task starts it again.
 * - It never keeps the process alive (unref'd); {@link TaskThread.close} ends it.
 * - Tasks run one after another on the thread, in the order given; a task's error comes back as an Error with its
 *   message. A thread that dies fails the tasks it had; the next task starts a new one.
 * - Running from the TypeScript source (`npm run dev`, the in-process tests) with no explicit worker file, tasks run
 *   in place (`inPlace`): a thread would cost tsx's start (lib/worker-thread.ts) in every test file that runs one.
 */
import { parentPort, type Worker } from 'node:worker_threads';
import { fromSource, startModuleThread } from './worker-thread.js';

/** A task as posted to the thread. */
interface TaskRequest<I> {
  id: number;
  input: I;
}
/** The thread's answer: the task's output, or its error's message. */
type TaskReply<O> = { id: number; output: O } | { id: number; error: string };

/** Runs tasks of one kind on its thread. */
export interface TaskThread<I, O> {
  /** The task's output. @throws Error with the task's error message, or when the thread died or was closed */
  run(input: I): Promise<O>;
  /** Ends the thread, if one runs; tasks still pending fail. */
  close(): Promise<void>;
}

/**
 * A task thread (see the module comment).
 * @param opts.moduleUrl the calling module's `import.meta.url`: the worker `name` (e.g. `resale-pdf.worker`) is the
 *   module beside it (lib/worker-thread.ts)
 * @param opts.inPlace the task itself, run in place when running from the source (the worker runs it too)
 * @param opts.workerFile the thread's module (the tests' bundle); default `name` beside `moduleUrl`
 * @param opts.idleMs milliseconds without a task after which the thread ends (default 60,000)
 */
export function createTaskThread<I, O>(opts: {
  moduleUrl: string;
  name: string;
  inPlace: (input: I) => Promise<O>;
  workerFile?: string;
  idleMs?: number;
}): TaskThread<I, O> {
  if (!opts.workerFile && fromSource(opts.moduleUrl)) return { run: opts.inPlace, close: () => Promise.resolve() };
  const idleMs = opts.idleMs ?? 60_000;
  const pending = new Map<number, { resolve: (output: O) => void; reject: (err: Error) => void }>();
  let thread: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const stop = async () => {
    const worker = thread;
    thread = null;
    if (idleTimer) clearTimeout(idleTimer);
    failAll(new Error(`the ${opts.name} thread closed`));
    await worker?.terminate();
  };
  const start = (): Worker => {
    const worker = startModuleThread(opts.moduleUrl, opts.name, {}, opts.workerFile);
    worker.unref();
    worker.on('message', (reply: TaskReply<O>) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.output);
      if (pending.size === 0) idleTimer = setTimeout(() => void stop(), idleMs).unref();
    });
    const gone = (err: Error) => {
      if (thread !== worker) return;
      thread = null;
      failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the ${opts.name} thread exited (${code})`)));
    return worker;
  };

  return {
    run(input) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      thread ??= start();
      const id = nextId++;
      const output = new Promise<O>((resolve, reject) => pending.set(id, { resolve, reject }));
      thread.postMessage({ id, input } satisfies TaskRequest<I>);
      return output;
    },
    close: stop,
  };
}

/** In a task thread's module: answers each task posted to it with `handler`'s output or error. */
export function serveTasks<I, O>(handler: (input: I) => Promise<O>): void {
  const port = parentPort!;
  port.on('message', ({ id, input }: TaskRequest<I>) => {
    handler(input).then(
      (output) => port.postMessage({ id, output } satisfies TaskReply<O>),
      (err: unknown) =>
        port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies TaskReply<O>),
    );
  });
}
