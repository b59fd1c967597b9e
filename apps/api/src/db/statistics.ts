/**
 * The planner's statistics (issue 44, decision 051). PostgreSQL's plans for a holder's pass and ticket list depend on
 * what `ANALYZE` last saw of the tables: a table of 15,000 tickets that the planner still believes empty is scanned
 * whole for each holder (3 ms a pass instead of 0.03 ms, the gate simulation's bottleneck). PostgreSQL's autovacuum
 * analyses a table about a minute after it changed a lot; PGlite runs in single-user mode with no autovacuum at all,
 * so on the embedded database nothing would ever analyse. Hence `analyze` after a background import (the doors may
 * open right after a 50,000-row file) and at every housekeeping run on PGlite.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * Refreshes the planner's statistics: of the tables a holder's requests read (`users`, `user_tickets`, `auth_sessions`,
 * `ticket_types`, `events`) by default, of every table with `everything`. Takes a few hundred milliseconds on a
 * large table (ANALYZE samples at most 30,000 rows of each); never throws a user's error.
 */
export async function analyzeTables(db: DbOrTx, opts: { everything?: boolean } = {}): Promise<void> {
  await db.execute(
    opts.everything ? sql`analyze` : sql`analyze users, user_tickets, auth_sessions, ticket_types, events`,
  );
}
