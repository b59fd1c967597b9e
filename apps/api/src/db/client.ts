/**
 * Database connection: PGlite (embedded, under DATA_DIR) by default, a `pg` Pool when
 * DATABASE_URL is set. Both expose the same Drizzle API; migrations run at start-up.
 */
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

type Schema = typeof schema;
/** The Drizzle database, whichever driver backs it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept `Db | Tx`. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = resolve(import.meta.dirname, 'migrations');

/** Wraps an existing PGlite instance (tests clone a migrated template per file). */
export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    ping: async () => {
      await client.query('select 1');
      return true;
    },
    close: () => client.close(),
  };
}

/** Applies the checked-in migrations (idempotent). */
export async function migrate(database: Database, kind: 'pglite' | 'pg'): Promise<void> {
  if (kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
  else await migratePg(database.db as never, { migrationsFolder });
}

/**
 * Opens the database named by the config and applies migrations.
 * @param databaseUrl PostgreSQL URL, or null for PGlite under `dataDir/pglite`.
 */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const database: Database = {
      db,
      ping: async () => {
        await db.execute(sql`select 1`);
        return true;
      },
      close: () => pool.end(),
    };
    await migrate(database, 'pg');
    return database;
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const database = fromPglite(client);
  await migrate(database, 'pglite');
  return database;
}
