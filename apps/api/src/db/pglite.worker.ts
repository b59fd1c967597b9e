/**
 * The embedded database's thread (docs/decisions/021-pglite-worker-thread.md): PGlite runs here, off the
 * HTTP event loop, and answers the requests of `pglite-proxy.ts`. One PGlite, one connection: statements
 * outside a transaction wait for an open transaction to end (PGlite's own lock), statements of a transaction
 * run on its handle by id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import type { WorkerReply, WorkerRequest } from './pglite-proxy.js';
import { PgliteStatements } from './pglite-statements.js';

const keepText = (value: string) => value;
/** The parsers drizzle-orm/pglite asks for (dates, intervals and their arrays stay text); functions cannot cross threads. */
const DRIZZLE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((t) => [
    t,
    keepText,
  ]),
);

const { dataDir, loadDataDir, settings, ...compiled } = workerData as {
  dataDir?: string;
  loadDataDir?: Uint8Array<ArrayBuffer>;
  /** PostgreSQL settings added to PGlite's start parameters (`-c name=value`; pglite-proxy.ts, decision 041). */
  settings: Record<string, string>;
  /** Compiled once by the main thread (pglite-proxy.ts). */
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
};
const port = parentPort!;
const pg = await PGlite.create({
  ...compiled,
  startParams: [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
  ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : { dataDir }),
});
const statements = new PgliteStatements(pg);
const txs = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> }>();
let nextTx = 1;

/** The error's fields (PostgreSQL's code, constraint, detail...) as plain data. */
function plainError(err: unknown) {
  const e = err as Error & Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e ?? {})) if (['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { ...fields, message: String(e?.message ?? err), name: String(e?.name ?? 'Error') };
}

/**
 * One statement. Data statements run on a kept named statement (`pglite-statements.ts`) under the locks PGlite's
 * `query` takes: outside a transaction, after any open transaction ends; inside one, on its turn. Any other
 * statement goes through PGlite's `query` and closes the kept statements (a migration's DDL may change a plan).
 */
function query(req: Extract<WorkerRequest, { op: 'query' }>): Promise<unknown> {
  const options = {
    ...(req.rowMode ? { rowMode: req.rowMode } : {}),
    ...(req.drizzleParsers ? { parsers: DRIZZLE_PARSERS } : {}),
  };
  const open = req.tx ? txs.get(req.tx) : undefined;
  if (req.tx && !open) return Promise.reject(new Error('Transaction is closed'));
  if (!PgliteStatements.keeps(req.sql)) {
    // Before (a kept statement may run while this one waits for the locks) and after it (one prepared meanwhile).
    statements.forget();
    return (open?.tx ?? pg).query(req.sql, req.params, options).finally(() => statements.forget());
  }
  const run = () => pg._runExclusiveQuery(() => statements.run(req.sql, req.params, options, Boolean(open)));
  return open ? run() : pg._runExclusiveTransaction(run);
}

function handle(req: WorkerRequest): Promise<unknown> {
  switch (req.op) {
    case 'query':
      return query(req);
    case 'exec': {
      const on = req.tx ? txs.get(req.tx)?.tx : pg;
      if (!on) return Promise.reject(new Error('Transaction is closed'));
      statements.forget();
      return on.exec(req.sql).finally(() => statements.forget());
    }
    case 'begin':
      return new Promise((opened, failed) => {
        const id = nextTx++;
        let end!: (commit: boolean) => void;
        const ended = new Promise<boolean>((r) => (end = r));
        const done = pg
          .transaction(async (tx) => {
            txs.set(id, { tx, end, done });
            opened(id);
            if (!(await ended)) await tx.rollback();
          })
          .finally(() => txs.delete(id));
        done.catch(failed); // BEGIN itself failed (after opening, `end` reports the outcome)
      });
    case 'end': {
      const open = txs.get(req.tx);
      if (!open) return Promise.reject(new Error('Transaction is closed'));
      open.end(req.commit);
      return open.done;
    }
    case 'close':
      return pg.close();
  }
}

/** Answers one request; a value that cannot cross threads answers as an error instead of hanging. */
function reply(message: WorkerReply): void {
  try {
    port.postMessage(message);
  } catch (err) {
    port.postMessage({ id: message.id, ok: false, error: plainError(err) } satisfies WorkerReply);
  }
}

port.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (value) => reply({ id: req.id, ok: true, value: req.op === 'end' || req.op === 'close' ? null : value }),
    (err: unknown) => reply({ id: req.id, ok: false, error: plainError(err) }),
  );
});
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies WorkerReply);
