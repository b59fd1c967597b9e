/**
 * PGlite in a worker thread (docs/decisions/021-pglite-worker-thread.md, issue 24 and issue 19 break 3): the
 * embedded database's WASM runs on its own thread, so the HTTP event loop keeps answering while a statement
 * runs (a 10,000-row import), and query planning and execution overlap the request work of the main thread.
 *
 * `PgliteProxy` has the part of PGlite's client API that drizzle-orm/pglite and this app use (`query`,
 * `exec`, `transaction`, `close`); each call is a message to `pglite.worker.ts`. Errors come back as Errors with
 * PostgreSQL's fields (`code`, `constraint`, `detail`...), as PGlite throws them.
 */
import { readFile } from 'node:fs/promises';
import type { Worker, ResourceLimits } from 'node:worker_threads';
import { startModuleThread } from '../lib/worker-thread.js';
import { PGLITE_MEMORY_DEFAULTS, type PgliteMemoryOptions } from '../config.js';

/** A request to the database thread. `tx`: run inside that open transaction. */
export type WorkerRequest = { id: number } & (
  | {
      op: 'query';
      sql: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      /** Apply drizzle-orm/pglite's parsers (dates and intervals stay text). */
      drizzleParsers?: boolean;
      tx?: number;
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);
/** The database thread's answer to request `id` (id 0: the thread is ready). */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> & { message: string } };

type Body<T = WorkerRequest> = T extends unknown ? Omit<T, 'id'> : never;
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: object };
/** What a query answers (PGlite's `Results`). */
export interface ProxyResults<T = Record<string, unknown>> {
  rows: T[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}

/**
 * The worker: `workerUrl` when given (the tests' global setup bundles the worker once, test/setup/global-pglite.ts),
 * else `pglite.worker` beside this module, compiled or (dev) through tsx (lib/worker-thread.ts).
 */
function startWorker(workerData: unknown, workerUrl: URL | undefined, resourceLimits: ResourceLimits): Worker {
  return startModuleThread(import.meta.url, 'pglite.worker', { workerData, resourceLimits }, workerUrl);
}

/** PostgreSQL settings (`-c name=value`) the database thread adds to PGlite's start parameters. */
export function pgliteSettings(options: PgliteMemoryOptions): Record<string, string> {
  return { shared_buffers: `${options.sharedBuffersMb}MB` };
}

/**
 * PGlite's WebAssembly modules and file-system bundle, read and compiled once per process and handed to each
 * database thread (a WebAssembly.Module crosses threads without recompiling): a thread then opens in about
 * the time an in-process PGlite does.
 */
let assets: Promise<{
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}> | null = null;
function pgliteAssets() {
  assets ??= (async () => {
    const at = (name: string) => new URL(`./${name}`, import.meta.resolve('@electric-sql/pglite'));
    const [pglite, initdb, bundle] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((f) => readFile(at(f))),
    );
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(pglite),
      WebAssembly.compile(initdb),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle]) };
  })();
  return assets;
}

/** One open transaction's client: statements go to that transaction. */
class TxClient {
  constructor(
    private readonly proxy: PgliteProxy,
    readonly txId: number,
  ) {}
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<ProxyResults<T>> {
    return this.proxy.query<T>(sql, params, options, this.txId);
  }
  exec(sql: string): Promise<ProxyResults[]> {
    return this.proxy.exec(sql, this.txId);
  }
}

/** PGlite on a worker thread; open with {@link PgliteProxy.open}. */
export class PgliteProxy {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private dead: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    const fail = (err: Error) => {
      this.dead = err;
      for (const w of this.pending.values()) w.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`pglite: database thread exited (${code})`)));
  }

  /**
   * Starts the database thread on a data directory, or on a dump (`dumpDataDir`, tests load the migrated
   * template), and waits until PGlite is open. `workerUrl`: the worker module to run (tests: a bundled one).
   * `memory`: PostgreSQL's buffers and the thread's young generation (default {@link PGLITE_MEMORY_DEFAULTS}).
   */
  static async open(
    source: { dataDir: string } | { loadDataDir: Uint8Array },
    workerUrl?: URL,
    memory: PgliteMemoryOptions = PGLITE_MEMORY_DEFAULTS,
  ): Promise<PgliteProxy> {
    const worker = startWorker({ ...source, ...(await pgliteAssets()), settings: pgliteSettings(memory) }, workerUrl, {
      maxYoungGenerationSizeMb: memory.youngGenerationMb,
    });
    const proxy = new PgliteProxy(worker);
    await new Promise<void>((resolve, reject) => {
      proxy.pending.set(0, { resolve: () => resolve(), reject });
    });
    return proxy;
  }

  private send<T>(req: Body): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  /** A statement; `options.parsers` (drizzle's) are applied on the database thread. */
  query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<ProxyResults<T>> {
    return this.send({
      op: 'query',
      sql,
      params,
      ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
      ...(options?.parsers ? { drizzleParsers: true } : {}),
      ...(tx ? { tx } : {}),
    });
  }

  /** Several statements, no parameters (migrations). */
  exec(sql: string, tx?: number): Promise<ProxyResults[]> {
    return this.send({ op: 'exec', sql, ...(tx ? { tx } : {}) });
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: TxClient) => Promise<T>): Promise<T> {
    const txId = await this.send<number>({ op: 'begin' });
    let result: T;
    try {
      result = await fn(new TxClient(this, txId));
    } catch (err) {
      await this.send({ op: 'end', tx: txId, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.send({ op: 'end', tx: txId, commit: true });
    return result;
  }

  /** Requests sent to the database thread and not answered yet (one runs, the rest wait behind it). */
  inFlight(): number {
    return this.pending.size;
  }

  /** Closes PGlite and ends the thread. */
  async close(): Promise<void> {
    if (this.dead) return;
    await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}
