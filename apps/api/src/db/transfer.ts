/**
 * Moving the data between databases (decision 033): an export of every table of the app's schemas as JSON lines,
 * and its import into another database of the same migrations, in one transaction. Generic over the schema: the
 * tables, their columns, foreign keys and sequences are read from the database's catalogue, never listed here.
 *
 * The file, one JSON value per line (UTF-8):
 *
 * ```
 * {"format":"ticket-panel-export","version":1,"migrations":14,"exportedAt":"2026-11-27T12:00:00.000Z"}
 * {"table":"public.users","rows":2}
 * {"id":1,"email":"a@example.com",…}          ← row_to_json of each row, as PostgreSQL writes it
 * {"id":2,…}
 * {"table":"public.auth_sessions","rows":0}
 * {"sequence":"public.users_id_seq","lastValue":"2","isCalled":true}
 * {"end":true,"tables":22,"rows":2}
 * ```
 *
 * Rows never pass through JavaScript numbers: PostgreSQL writes them (`row_to_json`) and reads them back
 * (`json_populate_recordset`), so bigints, numerics, timestamps (UTC offsets kept), jsonb, arrays and bytea keep
 * their value. Tables come in foreign-key order (parents first), so the import checks every constraint as it goes
 * without a superuser's `session_replication_role`.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.js';
import { INSTANCE_LOCK_KEY } from './instance-lock.js';

/** The first line's `format` value. */
const FORMAT = 'ticket-panel-export';
const VERSION = 1;
/** Rows per insert statement on import (one JSON parameter each). */
const BATCH_ROWS = 1000;

/** Schemas that are not the app's data: the catalogue's and drizzle's migration journal. */
const NOT_APP = `('pg_catalog', 'information_schema', 'drizzle', 'pg_toast')`;

interface Header {
  format: string;
  version: number;
  /** How many migrations the exported database had applied (drizzle's journal rows). */
  migrations: number;
  exportedAt: string;
}

type Line =
  | { table: string; rows: number }
  | { sequence: string; lastValue: string; isCalled: boolean }
  | { end: true; tables: number; rows: number };

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** Quotes `schema.name` (as the catalogue spells it) for SQL. */
function ident(qualified: string): string {
  const dot = qualified.indexOf('.');
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  return `${q(qualified.slice(0, dot))}.${q(qualified.slice(dot + 1))}`;
}

/**
 * The app's tables (`schema.name`), parents before children along foreign keys.
 * @throws Error when foreign keys form a cycle between tables (none does today; a self-reference is allowed
 *   only if rows are inserted parents first, which the export's primary-key order gives for serial ids).
 */
async function tablesInForeignKeyOrder(db: DbOrTx): Promise<string[]> {
  const tables = await rows<{ name: string }>(
    db,
    sql.raw(`select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where c.relkind in ('r', 'p') and not c.relispartition and n.nspname not in ${NOT_APP}
               and n.nspname not like 'pg_temp%' order by 1`),
  );
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql.raw(`select cn.nspname || '.' || cc.relname as child, pn.nspname || '.' || pc.relname as parent
             from pg_constraint k
             join pg_class cc on cc.oid = k.conrelid join pg_namespace cn on cn.oid = cc.relnamespace
             join pg_class pc on pc.oid = k.confrelid join pg_namespace pn on pn.oid = pc.relnamespace
             where k.contype = 'f' and k.conrelid <> k.confrelid`),
  );
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const done = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !done.has(t.name) && [...parents.get(t.name)!].every((p) => done.has(p)));
    if (!ready.length) throw new Error('db transfer: the foreign keys between tables form a cycle');
    for (const t of ready) {
      done.add(t.name);
      ordered.push(t.name);
    }
  }
  return ordered;
}

/** The columns an insert may write (generated columns left out), in table order. */
async function insertableColumns(db: DbOrTx, table: string): Promise<string[]> {
  const cols = await rows<{ name: string }>(
    db,
    sql`select attname as name from pg_attribute
        where attrelid = ${ident(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
        order by attnum`,
  );
  return cols.map((c) => c.name);
}

/** The primary key's columns (the export's row order), empty when the table has none. */
async function primaryKey(db: DbOrTx, table: string): Promise<string[]> {
  const cols = await rows<{ name: string }>(
    db,
    sql`select a.attname as name from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = ${ident(table)}::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
  );
  return cols.map((c) => c.name);
}

/** How many migrations drizzle's journal holds (0 when the database was never migrated). */
export async function appliedMigrations(db: DbOrTx): Promise<number> {
  const [r] = await rows<{ n: number | null }>(
    db,
    sql.raw(`select case when to_regclass('drizzle.__drizzle_migrations') is null then 0
             else (select count(*)::int from drizzle.__drizzle_migrations) end as n`),
  );
  return Number(r?.n ?? 0);
}

/**
 * Writes every row of the app's tables and every sequence's position as JSON lines (the format above), read in
 * one repeatable-read transaction (a consistent snapshot on PostgreSQL; PGlite has one connection anyway).
 * @param write receives each line, newline included; awaited (backpressure).
 * @returns the tables and rows written.
 */
export async function exportData(
  db: Db,
  write: (line: string) => Promise<void> | void,
): Promise<{ tables: number; rows: number }> {
  return db.transaction(
    async (tx) => {
      const header: Header = {
        format: FORMAT,
        version: VERSION,
        migrations: await appliedMigrations(tx),
        exportedAt: new Date().toISOString(),
      };
      await write(JSON.stringify(header) + '\n');
      const tables = await tablesInForeignKeyOrder(tx);
      let total = 0;
      for (const table of tables) {
        const key = await primaryKey(tx, table);
        const order = key.length ? ` order by ${key.map((k) => `t."${k.replaceAll('"', '""')}"`).join(', ')}` : '';
        const data = await rows<{ r: string }>(
          tx,
          sql.raw(`select row_to_json(t)::text as r from ${ident(table)} t${order}`),
        );
        await write(JSON.stringify({ table, rows: data.length } satisfies Line) + '\n');
        for (const d of data) await write(d.r + '\n');
        total += data.length;
      }
      const sequences = await rows<{ name: string; last_value: string | null; is_called: boolean }>(
        tx,
        sql.raw(`select s.schemaname || '.' || s.sequencename as name, s.last_value::text as last_value,
                 s.last_value is not null as is_called
                 from pg_sequences s where s.schemaname not in ${NOT_APP} order by 1`),
      );
      for (const s of sequences) {
        const line: Line = { sequence: s.name, lastValue: s.last_value ?? '1', isCalled: s.is_called };
        await write(JSON.stringify(line) + '\n');
      }
      await write(JSON.stringify({ end: true, tables: tables.length, rows: total } satisfies Line) + '\n');
      return { tables: tables.length, rows: total };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** A connection to the same database other than ours, as `pg_stat_activity` shows it. */
export interface OtherConnection {
  pid: number;
  /** The client's `application_name` ('' when it set none). */
  applicationName: string;
  /** The client's address, null over a Unix socket. */
  clientAddr: string | null;
  /** When it connected (ISO 8601, UTC offset as PostgreSQL writes it). */
  backendStart: string;
}

/**
 * The client connections to the current database other than this one (issue 39, item 12): an instance serving it
 * keeps at least one open while it runs (its job worker polls every 2 s, the pool closes a connection after 10 s
 * idle), and so does a `psql` or a second import. Background workers (autovacuum, walwriter) are not clients and
 * are left out, as far as the importer can tell: a role without `pg_read_all_stats` sees another role's sessions
 * with `backend_type` NULL (only `datname`, `pid` and a few more are shown), so those count as clients too (an
 * instance running as another role was missed: issue 39 audit); at worst an autovacuum worker of another role
 * refuses an import that a retry then takes.
 */
export async function otherConnections(db: DbOrTx): Promise<OtherConnection[]> {
  const found = await rows<{ pid: number; app: string | null; addr: string | null; started: string }>(
    db,
    sql.raw(`select pid, application_name as app, client_addr::text as addr, backend_start::text as started
             from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()
               and (backend_type = 'client backend' or backend_type is null)
             order by backend_start`),
  );
  return found.map((r) => ({
    pid: Number(r.pid),
    applicationName: r.app ?? '',
    clientAddr: r.addr,
    backendStart: r.started,
  }));
}

/** The command-line flag that, with `--force`, lets an import run while other clients are connected. */
export const IMPORT_CONFIRMATION_FLAG = 'yes-i-stopped-every-instance';

/** Thrown by {@link importData} when another client is connected to the target (`connections` names them). */
export class TargetInUseError extends Error {
  constructor(readonly connections: OtherConnection[]) {
    const list = connections
      .slice(0, 10)
      .map(
        (c) =>
          `pid ${c.pid} ${c.applicationName || '(no application name)'} from ${c.clientAddr ?? 'a local socket'} since ${c.backendStart}`,
      )
      .join('; ');
    super(
      `${connections.length} other connection(s) to the target database (${list}${connections.length > 10 ? '; …' : ''}): ` +
        'an instance serving it would keep running on data the import replaces. Stop every instance and client of ' +
        'this database, then import again. Only if none of these serves it, pass --force together with ' +
        `--${IMPORT_CONFIRMATION_FLAG}`,
    );
    this.name = 'TargetInUseError';
  }
}

/** Thrown by {@link importData} when a running instance holds the instance lock (`instance-lock.ts`). */
export class InstanceRunningError extends Error {
  constructor() {
    super(
      'an instance of the product is running on the target database (it holds the instance lock, even when idle): ' +
        'stop every instance, then import again; no flag imports under a running instance',
    );
    this.name = 'InstanceRunningError';
  }
}

/**
 * Loads an export into `db`, which must already be migrated to the export's migrations, in one transaction: all
 * or nothing. Refused while another client is connected to the target database (an instance serving it would go on
 * with caches, sessions and queued jobs of the data being replaced): the transaction first locks every app table
 * (ACCESS EXCLUSIVE, so a client that connects meanwhile waits for the commit instead of reading half an import;
 * waits at most 10 s for a lock), then asks `pg_stat_activity` ({@link otherConnections}). Rows go in foreign-key order with every constraint checked; then each sequence is set to the
 * exported position, or past the largest value of the column it feeds when that is larger (`setval`).
 * @param lines the file's lines, in order (empty lines ignored).
 * @param opts.force when the target holds rows: empty every app table first (same transaction) instead of refusing.
 * @param opts.allowOtherConnections import even while other clients are connected (the command line sets it only
 *   for `--force` together with `--yes-i-stopped-every-instance`).
 * @throws InstanceRunningError (nothing written) when a running instance holds the instance lock, flags or not.
 * @throws TargetInUseError (nothing written) when another client is connected and `allowOtherConnections` is not set.
 * @throws Error (nothing written) when the file is not an export, is cut short, was made at another migration count, names a
 *   table the target lacks, or the target holds rows and `force` is not set.
 */
export async function importData(
  db: Db,
  lines: AsyncIterable<string>,
  opts: { force?: boolean; allowOtherConnections?: boolean } = {},
): Promise<{ tables: number; rows: number }> {
  const it = lines[Symbol.asyncIterator]();
  const next = async (): Promise<string | null> => {
    for (;;) {
      const r = await it.next();
      if (r.done) return null;
      if (r.value.trim()) return r.value;
    }
  };
  const first = await next();
  const header = first ? (JSON.parse(first) as Partial<Header>) : null;
  if (header?.format !== FORMAT || header.version !== VERSION)
    throw new Error(`not a ${FORMAT} file of version ${VERSION}`);
  return db.transaction(async (tx) => {
    const migrations = await appliedMigrations(tx);
    if (migrations !== header.migrations)
      throw new Error(
        `the export was made at ${header.migrations} migrations, this database has ${migrations}: export and import with the same release`,
      );
    const tables = await tablesInForeignKeyOrder(tx);
    // Nobody reads or writes the tables until the commit; then nobody else may be connected at all.
    await tx.execute(sql.raw(`set local lock_timeout = '10s'`));
    if (tables.length) await tx.execute(sql.raw(`lock table ${tables.map(ident).join(', ')} in access exclusive mode`));
    // A running instance holds the instance lock shared, on a connection of its own, even when idle: never import
    // under one, whatever the flags (issue 39 item 12, re-audit). Held until the commit: an instance starting
    // meanwhile waits for it.
    const [free] = await rows<{ free: boolean }>(
      tx,
      sql.raw(`select pg_try_advisory_xact_lock(${INSTANCE_LOCK_KEY}) as free`),
    );
    if (!free?.free) throw new InstanceRunningError();
    if (!opts.allowOtherConnections) {
      const others = await otherConnections(tx);
      if (others.length) throw new TargetInUseError(others);
    }
    const known = new Set(tables);
    const nonEmpty: string[] = [];
    for (const t of tables) {
      const [r] = await rows<{ any: boolean }>(tx, sql.raw(`select exists (select 1 from ${ident(t)}) as any`));
      if (r?.any) nonEmpty.push(t);
    }
    if (nonEmpty.length && !opts.force)
      throw new Error(
        `the target database holds rows (${nonEmpty.join(', ')}); import into an empty one, or pass --force to empty it first`,
      );
    // Children first, so no foreign key is ever left dangling (DELETE, not TRUNCATE: rows only, in the transaction).
    for (const t of [...nonEmpty].reverse()) await tx.execute(sql.raw(`delete from ${ident(t)}`));

    let tableCount = 0;
    let total = 0;
    let current: { table: string; expected: number; columns: string[]; seen: number; batch: string[] } | null = null;
    const flush = async () => {
      if (!current?.batch.length) return;
      const cols = current.columns.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ');
      await tx.execute(
        sql`${sql.raw(`insert into ${ident(current.table)} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${ident(current.table)}, `)}${'[' + current.batch.join(',') + ']'}${sql.raw('::json)')}`,
      );
      current.batch = [];
    };
    const closeTable = async () => {
      if (!current) return;
      await flush();
      if (current.seen !== current.expected)
        throw new Error(`${current.table}: ${current.seen} rows read, the export announced ${current.expected}`);
      current = null;
    };
    for (;;) {
      const line = await next();
      if (line === null) throw new Error('the file ends before its last line: it was cut short');
      if (current && current.seen < current.expected) {
        current.batch.push(line);
        current.seen++;
        total++;
        if (current.batch.length >= BATCH_ROWS) await flush();
        continue;
      }
      await closeTable();
      const item = JSON.parse(line) as Line;
      if ('table' in item) {
        if (!known.has(item.table)) throw new Error(`the target database has no table ${item.table}`);
        current = {
          table: item.table,
          expected: item.rows,
          columns: await insertableColumns(tx, item.table),
          seen: 0,
          batch: [],
        };
        tableCount++;
      } else if ('sequence' in item) {
        // The exported position, or past the rows now present if a column it feeds holds more (e.g. rows given ids).
        const owned = await rows<{ col: string; tbl: string }>(
          tx,
          sql`select a.attname as col, n.nspname || '.' || c.relname as tbl from pg_depend d
              join pg_class c on c.oid = d.refobjid join pg_namespace n on n.oid = c.relnamespace
              join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
              where d.objid = ${ident(item.sequence)}::regclass and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')`,
        );
        let value = BigInt(item.lastValue);
        let isCalled = item.isCalled;
        for (const o of owned) {
          const [m] = await rows<{ max: string | null }>(
            tx,
            sql.raw(`select max("${o.col.replaceAll('"', '""')}")::text as max from ${ident(o.tbl)}`),
          );
          if (m?.max !== null && m?.max !== undefined && BigInt(m.max) >= value) {
            value = BigInt(m.max);
            isCalled = true;
          }
        }
        await tx.execute(
          sql`select setval(${ident(item.sequence)}::regclass, ${value.toString()}::bigint, ${isCalled})`,
        );
      } else if ('end' in item) {
        if (item.tables !== tableCount || item.rows !== total)
          throw new Error(
            `the export announced ${item.tables} tables and ${item.rows} rows, ${tableCount} and ${total} were read`,
          );
        return { tables: tableCount, rows: total };
      }
    }
  });
}
