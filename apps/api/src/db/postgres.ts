/**
 * The database on a real PostgreSQL server (DATABASE_URL): a `pg` pool behind Drizzle, migrated under an advisory
 * lock. Its own module, loaded by `openDatabase` (client.ts) only when DATABASE_URL is set, so an instance on the
 * embedded database never loads the `pg` driver (decision 041).
 */
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, Db } from './client.js';
import * as schema from './schema.js';

/** Key of the session-level advisory lock that serialises migrations across instances ("tp:migrate"). */
const MIGRATION_LOCK_KEY = 0x74706d67;

/**
 * Applies the migrations on a real PostgreSQL server under `pg_advisory_lock`, so N instances starting
 * together on an empty database migrate one after the other (the later ones find nothing to do).
 * Runs on one dedicated connection: the lock, the migrator's transaction and the unlock share it.
 */
async function migrateLocked(pool: pg.Pool, folder: string): Promise<void> {
  const client = await pool.connect();
  try {
    // Migrations (an index built on a large table) and the wait for another instance's migrations run unbounded.
    await client.query('set statement_timeout = 0');
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await client.query('reset statement_timeout');
    }
  } finally {
    client.release();
  }
}

/**
 * The `pg` pool of a real PostgreSQL server, made to survive the server's restarts: errors of idle
 * connections (pool `error`) and of checked-out ones (client `error`, e.g. 57P01 admin_shutdown while a
 * transaction waits) are logged instead of crashing the process; broken connections leave the pool and new
 * ones are opened on demand once the server is back. `connectionTimeoutMillis` bounds a connect to an
 * unreachable server (the request then answers 503, see lib/http.ts).
 */
function createPool(
  url: string,
  max: number,
  log: (msg: string, err: unknown) => void,
  statementTimeoutMs: number | undefined,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    // A session default set at connect (the startup packet): `RESET statement_timeout` comes back to it.
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  pool.on('error', (err) => log('postgres: idle connection lost', err));
  pool.on('connect', (client) => client.on('error', (err) => log('postgres: connection lost', err)));
  return pool;
}

/**
 * Opens the pool on `url` (at most `poolMax` connections) and applies the migrations of `folder`.
 * @param log where connection errors go
 * @param statementTimeoutSeconds PostgreSQL's `statement_timeout` on the pool's connections, seconds (undefined or
 *   0: none); a statement past it fails with SQLSTATE 57014
 */
export async function openPostgres(
  url: string,
  poolMax: number,
  log: (msg: string, err: unknown) => void,
  folder: string,
  statementTimeoutSeconds?: number,
): Promise<Database> {
  const pool = createPool(url, poolMax, log, statementTimeoutSeconds ? statementTimeoutSeconds * 1000 : undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db; // the driver's result type differs, see fromPglite
  const database: Database = {
    db,
    kind: 'pg',
    ping: async () => {
      await db.execute(sql`select 1`);
      return true;
    },
    poolStats: () => ({
      size: pool.totalCount,
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
  await migrateLocked(pool, folder);
  return database;
}
