/**
 * The pass-signing pool (issue 39, break 5; decision 029): Apple passes are built and signed on worker threads
 * (pass-signing.worker.ts), so a burst of pass downloads never holds the event loop (before: ~31 ms of main-thread
 * CPU a pass, and `/healthz` p99 over 1 s at 12–20 downloads a second).
 *
 * - At most `threads` passes are signed at once, one per thread; threads start on the first pass (an instance that
 *   signs no pass starts none) and stay for the next.
 * - At most `queue` more wait for a thread. A pass beyond that is refused at once with `503 api.wallet.busy` and
 *   `Retry-After`: a burst never becomes an unbounded backlog.
 * - Each pass has a deadline (`deadlineMs`, its wait included). Past it the pass is answered `api.wallet.busy`; a
 *   thread still signing it is terminated (its work is JavaScript only, so it stops at once) and a fresh one takes
 *   the next pass.
 * - {@link PassSigner.close} (the app's onClose) refuses what waits and ends the threads.
 *
 * Why our own small pool rather than tinypool (used for avatars): a worker thread cannot load the TypeScript source
 * through `--import tsx` on Node 22.13, the oldest Node `engines` allows (no loader hooks in workers before 22.2x;
 * Node 24 has them), so the thread is started the way the PGlite thread is (pglite-proxy.ts: the compiled `.js` next to this module, else tsx registered inside the thread).
 */
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { PassSigningConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { startModuleThread } from '../../lib/worker-thread.js';
import type { PassSigningCertificates, PassSigningReply, PassSigningRequest, PassSpec } from './pass-signing.worker.js';

/** Seconds a refused download is told to wait (`Retry-After`): about a queue's worth of passes. */
export const PASS_BUSY_RETRY_AFTER_SECONDS = 2;

/** Where the certificates are (PEM files; read once, when the first thread starts). */
export interface PassCertificatePaths {
  wwdrPath: string;
  certPath: string;
  keyPath: string;
  keyPassphrase: string | null;
}

/**
 * The thread: `workerFile` when given (the API tests pass this run's bundle, test/setup/server-bundle.ts), else
 * `pass-signing.worker` beside this module, compiled or (dev) through tsx (lib/worker-thread.ts).
 */
function startThread(certificates: PassSigningCertificates, workerFile?: string): Worker {
  return startModuleThread(import.meta.url, 'pass-signing.worker', { workerData: certificates }, workerFile);
}

const busy = () => new AppError('api.wallet.busy', {}, { 'Retry-After': String(PASS_BUSY_RETRY_AFTER_SECONDS) });

interface Job {
  id: number;
  spec: PassSpec;
  resolve: (pkpass: Buffer) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}
interface Thread {
  worker: Worker;
  /** The job it is signing, null when idle. */
  job: Job | null;
}

/**
 * Creates the pool (see the module comment); no thread starts before the first {@link PassSigner.sign}.
 * `workerFile`: the signing thread's module (`pass-signing.worker`, compiled; default the one beside this module).
 */
export function createPassSigner(deps: {
  certificates: PassCertificatePaths;
  config: PassSigningConfig;
  workerFile?: string;
}) {
  const { threads: maxThreads, queue: maxQueue, deadlineMs } = deps.config;
  const threads: Thread[] = [];
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;
  let certificates: PassSigningCertificates | null = null;

  const readCertificates = (): PassSigningCertificates => {
    const c = deps.certificates;
    certificates ??= {
      wwdr: readFileSync(c.wwdrPath, 'utf8'),
      signerCert: readFileSync(c.certPath, 'utf8'),
      signerKey: readFileSync(c.keyPath, 'utf8'),
      ...(c.keyPassphrase ? { signerKeyPassphrase: c.keyPassphrase } : {}),
    };
    return certificates;
  };

  /** Settles a job once: clears its deadline. */
  function settle(job: Job, outcome: { pkpass: Buffer } | { error: unknown }) {
    clearTimeout(job.timer);
    if ('pkpass' in outcome) job.resolve(outcome.pkpass);
    else job.reject(outcome.error);
  }

  /** Forgets a thread (it failed, exited or ran past a deadline) and stops it; the next pass starts another. */
  function drop(thread: Thread) {
    const i = threads.indexOf(thread);
    if (i >= 0) threads.splice(i, 1);
    thread.job = null;
    void thread.worker.terminate();
  }

  function spawn(): Thread {
    const thread: Thread = { worker: startThread(readCertificates(), deps.workerFile), job: null };
    // The pool never keeps the process alive by itself; onClose ends the threads.
    thread.worker.unref();
    thread.worker.on('message', (reply: PassSigningReply) => {
      const job = thread.job;
      if (!job || reply.id !== job.id) return;
      thread.job = null;
      settle(
        job,
        reply.ok
          ? { pkpass: Buffer.from(reply.pkpass.buffer, reply.pkpass.byteOffset, reply.pkpass.byteLength) }
          : { error: new Error(`wallet: signing a pass failed: ${reply.message}`) },
      );
      pump();
    });
    const fail = (error: unknown) => {
      const job = thread.job;
      if (!threads.includes(thread)) return;
      drop(thread);
      if (job) settle(job, { error });
      pump();
    };
    thread.worker.on('error', fail);
    thread.worker.on('exit', (code) => fail(new Error(`wallet: the pass-signing thread exited (${code})`)));
    threads.push(thread);
    return thread;
  }

  /** Hands waiting passes to idle threads, starting threads up to the bound. */
  function pump() {
    while (waiting.length && !closed) {
      const thread = threads.find((t) => !t.job) ?? (threads.length < maxThreads ? spawn() : null);
      if (!thread) return;
      const job = waiting.shift() as Job;
      thread.job = job;
      const request: PassSigningRequest = { id: job.id, spec: job.spec };
      thread.worker.postMessage(request);
    }
  }

  /** Past a job's deadline: out of the queue, or its thread stopped and replaced. */
  function expire(job: Job) {
    const queued = waiting.indexOf(job);
    if (queued >= 0) waiting.splice(queued, 1);
    const thread = threads.find((t) => t.job === job);
    if (thread) drop(thread);
    job.reject(busy());
    pump();
  }

  return {
    /**
     * The signed `.pkpass` of `spec`, made on a signing thread.
     * @throws AppError `api.wallet.busy` (503, `Retry-After` seconds) when `threads + queue` passes are already in
     *   flight, when the pass is not done within the deadline, or after {@link close}; an Error (500) when the
     *   thread could not make it (a pass.json the library refuses: a bug, not the holder's mistake).
     */
    sign(spec: PassSpec): Promise<Buffer> {
      if (closed || threads.filter((t) => t.job).length + waiting.length >= maxThreads + maxQueue)
        return Promise.reject(busy());
      return new Promise<Buffer>((resolve, reject) => {
        const job: Job = { id: nextId++, spec, resolve, reject, timer: setTimeout(() => expire(job), deadlineMs) };
        waiting.push(job);
        pump();
      });
    },
    /** Passes signing (`busy`, at most `threads`) and waiting (`queued`) right now. */
    stats: () => ({ busy: threads.filter((t) => t.job).length, queued: waiting.length }),
    /** Refuses what waits with `api.wallet.busy`, fails what is signing, ends the threads (app shutdown). */
    async close(): Promise<void> {
      closed = true;
      for (const job of waiting.splice(0)) settle(job, { error: busy() });
      const ending = threads.splice(0);
      for (const t of ending) if (t.job) settle(t.job, { error: busy() });
      await Promise.all(ending.map((t) => t.worker.terminate()));
    },
  };
}
