/**
 * Prepared statements for the hot queries (every authenticated request, /auth/me, the ticket
 * listing): Drizzle builds the SQL once per database handle instead of per call, and PostgreSQL
 * (`pg`, named statements) parses and plans it once per connection. A statement is bound to the
 * handle it was prepared on, so each handle (the database, or a transaction) gets its own copy.
 */
import type { DbOrTx } from './client.js';

/** Wraps `build` (which ends in `.prepare(name)`) into a per-handle cache. */
export function preparedStatement<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const byHandle = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = byHandle.get(db);
    if (!statement) {
      statement = build(db);
      byHandle.set(db, statement);
    }
    return statement;
  };
}
