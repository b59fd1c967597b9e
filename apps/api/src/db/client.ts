/**
 * Database connection: PGlite (embedded, under DATA_DIR, on its own worker thread: pglite-proxy.ts and
 * decision 021) by default, a `pg` Pool when DATABASE_URL is set. Both expose the same Drizzle API;
 * migrations run at start-up.
 */
import { join, resolve } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import * as schema from './schema.js';
import { PgliteProxy } from './pglite-proxy.js';
import type { PgliteMemoryOptions } from '../config.js';

type Schema = typeof schema;
/** The Drizzle database, whichever driver backs it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept `Db | Tx`. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /** Which engine: the embedded PGlite (one connection, decision 021) or a PostgreSQL server. */
  kind: 'pglite' | 'pg';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * The connections right now (metrics, decision 031): `size` open, `inUse` checked out, `waiting` requests
   * queued for one. `pg`: the Pool's counts. PGlite on its thread: one connection; `inUse` is 1 while a statement
   * runs, `waiting` the statements sent to the thread behind it. PGlite in this thread (`fromPglite`, the tests'
   * template build): 1, 0, 0 (it keeps no queue to read).
   */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** Connections of a database: open, checked out, and requests waiting for one. */
export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

/** The checked-in migrations (SQL files and drizzle's meta/_journal.json). */
export const migrationsFolder = resolve(import.meta.dirname, 'migrations');

/** Wraps an existing PGlite instance (tests clone a migrated template per file). */
export function fromPglite(client: PGlite): Database {
  // The casts to Db here and below: one type over both drivers, whose query-result types differ (same query API).
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
      return true;
    },
    poolStats: () => ({ size: 1, inUse: 0, waiting: 0 }),
    close: () => client.close(),
  };
}

/**
 * PGlite on a worker thread (decision 021): the server's and the tests' embedded database. `source` is a data
 * directory, or a dump (`dumpDataDir` bytes) to load, as the tests load the migrated template. `workerUrl`: the
 * worker module (tests pass the one their global setup bundled; default: next to pglite-proxy). `memory`: PostgreSQL's
 * buffers and the thread's young generation (default `PGLITE_MEMORY_DEFAULTS` of config.ts; decision 041).
 */
export async function openPgliteThread(
  source: { dataDir: string } | { loadDataDir: Uint8Array },
  workerUrl?: URL,
  memory?: PgliteMemoryOptions,
): Promise<Database> {
  const proxy = await PgliteProxy.open(source, workerUrl, memory);
  // The proxy answers the part of PGlite's interface drizzle calls (query, exec, transaction), not the rest.
  const db = drizzlePglite({ client: proxy as unknown as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await proxy.query('select 1');
      return true;
    },
    poolStats: () => {
      const sent = proxy.inFlight();
      return { size: 1, inUse: Math.min(sent, 1), waiting: Math.max(sent - 1, 0) };
    },
    close: () => proxy.close(),
  };
}

/**
 * Applies the checked-in migrations (idempotent). `folder`: another migrations folder of the same layout (the
 * upgrade test applies the first N of the checked-in ones, test/upgrade.test.ts).
 */
export async function migrate(database: Database, kind: 'pglite' | 'pg', folder = migrationsFolder): Promise<void> {
  if (kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder: folder });
  else
    await (
      await import('drizzle-orm/node-postgres/migrator')
    ).migrate(database.db as never, { migrationsFolder: folder });
}

/**
 * Opens the database named by the config and applies migrations.
 * @param databaseUrl PostgreSQL URL, or null for PGlite under `dataDir/pglite`.
 * @param databasePoolMax connections in the `pg` pool (default 10).
 * @param databaseStatementTimeoutSeconds PostgreSQL's `statement_timeout` on the pool's connections, seconds (default
 *   none; the server passes DATABASE_STATEMENT_TIMEOUT_SECONDS).
 * @param log where connection errors go (default console.warn).
 * @param migrationsFolder the migrations to apply (default the checked-in ones; the upgrade test passes fewer).
 * @param pgliteMemory the embedded database's memory settings (default `PGLITE_MEMORY_DEFAULTS`; decision 041).
 */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  databasePoolMax?: number;
  databaseStatementTimeoutSeconds?: number;
  pgliteMemory?: PgliteMemoryOptions;
  log?: (msg: string, err: unknown) => void;
  migrationsFolder?: string;
}): Promise<Database> {
  const folder = opts.migrationsFolder ?? migrationsFolder;
  if (opts.databaseUrl) {
    // The `pg` driver and Drizzle's adapter load only for a PostgreSQL server (decision 041).
    const { openPostgres } = await import('./postgres.js');
    const log = opts.log ?? ((msg, err) => console.warn(msg, (err as Error)?.message ?? err));
    return openPostgres(
      opts.databaseUrl,
      opts.databasePoolMax ?? 10,
      log,
      folder,
      opts.databaseStatementTimeoutSeconds,
    );
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  const database = await openPgliteThread({ dataDir: dir }, undefined, opts.pgliteMemory);
  await migrate(database, 'pglite', folder);
  if (!fresh) return database;
  // A new data directory: PGlite ran initdb in a second PGlite on the thread, whose WebAssembly memory (about
  // 190 MiB) stays resident until that thread's heap is collected, which an idle thread does not do. A new thread
  // starts without it (about 1 s, once per data directory; decision 041).
  await database.close();
  return openPgliteThread({ dataDir: dir }, undefined, opts.pgliteMemory);
}
