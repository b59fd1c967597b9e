/**
 * SQL of the background ticket imports (issue 44, decision 040): table `ticket_imports`, one row per file over
 * `IMPORT_BACKGROUND_ROWS` rows, with its rows, its progress and its outcome. Takes the database or a transaction.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { lockOrganisation } from '../../db/predicates.js';
import { ticketImports } from '../../db/schema.js';

type TicketImportRow = typeof ticketImports.$inferSelect;

/** An import's progress and outcome as GET /org/imports/{importId} reads it (no rows). */
type TicketImportStatusRow = Pick<
  TicketImportRow,
  'id' | 'status' | 'rowsTotal' | 'rowsDone' | 'created' | 'updated' | 'unchanged' | 'errors'
>;

/** Statuses of an import not yet finished: it holds its events. */
const UNFINISHED = ['queued', 'running'];

export const ticketImportsRepository = {
  /**
   * Locks the organisation's row until the transaction ends: two imports sent at once for the same events are
   * checked one after the other (the second sees the first's row).
   */
  lockOrganisation,

  /** The organisation's unfinished imports (queued or running) with their events. */
  async unfinished(db: DbOrTx, organisationId: number): Promise<{ id: string; eventIds: number[] }[]> {
    return db
      .select({ id: ticketImports.id, eventIds: ticketImports.eventIds })
      .from(ticketImports)
      .where(and(eq(ticketImports.organisationId, organisationId), inArray(ticketImports.status, UNFINISHED)));
  },

  /** Inserts a queued import with its rows. */
  async insert(
    db: DbOrTx,
    row: Pick<TicketImportRow, 'id' | 'organisationId' | 'eventIds' | 'actor' | 'rowsTotal' | 'rows'>,
  ): Promise<void> {
    await db.insert(ticketImports).values({ ...row, status: 'queued' });
  },

  /** An import's progress, only when it is the organisation's (another's is not found). */
  async statusOf(db: DbOrTx, organisationId: number, id: string): Promise<TicketImportStatusRow | undefined> {
    const [row] = await db
      .select({
        id: ticketImports.id,
        status: ticketImports.status,
        rowsTotal: ticketImports.rowsTotal,
        rowsDone: ticketImports.rowsDone,
        created: ticketImports.created,
        updated: ticketImports.updated,
        unchanged: ticketImports.unchanged,
        errors: ticketImports.errors,
      })
      .from(ticketImports)
      .where(and(eq(ticketImports.id, id), eq(ticketImports.organisationId, organisationId)));
    return row;
  },

  /** The whole import (rows too), for its job; locked until the transaction ends when `lock`. */
  async byId(db: DbOrTx, id: string, lock = false): Promise<TicketImportRow | undefined> {
    const q = db.select().from(ticketImports).where(eq(ticketImports.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },

  /** Progress without the rows, locked until the transaction ends (a chunk's transaction checks where it is). */
  async lockProgress(db: DbOrTx, id: string) {
    const [row] = await db
      .select({ status: ticketImports.status, rowsDone: ticketImports.rowsDone, headRows: ticketImports.headRows })
      .from(ticketImports)
      .where(eq(ticketImports.id, id))
      .for('update');
    return row;
  },

  /** Sets a queued import running. */
  async setRunning(db: DbOrTx, id: string): Promise<void> {
    await db.update(ticketImports).set({ status: 'running' }).where(eq(ticketImports.id, id));
  },

  /** Records the check's outcome: the rows in write order and how many the first transaction writes. */
  async setChecked(db: DbOrTx, id: string, rows: unknown, headRows: number): Promise<void> {
    await db.update(ticketImports).set({ rows, headRows }).where(eq(ticketImports.id, id));
  },

  /** Adds a written chunk to the progress (in the chunk's transaction). */
  async addProgress(
    db: DbOrTx,
    id: string,
    add: { rows: number; created: number; updated: number; unchanged: number },
  ): Promise<void> {
    await db
      .update(ticketImports)
      .set({
        rowsDone: sql`${ticketImports.rowsDone} + ${add.rows}`,
        created: sql`${ticketImports.created} + ${add.created}`,
        updated: sql`${ticketImports.updated} + ${add.updated}`,
        unchanged: sql`${ticketImports.unchanged} + ${add.unchanged}`,
      })
      .where(eq(ticketImports.id, id));
  },

  /** Ends an import `done` or `failed` (with its row errors), and lets its rows go. */
  async finish(db: DbOrTx, id: string, status: 'done' | 'failed', at: Date, errors: unknown = null): Promise<void> {
    await db.update(ticketImports).set({ status, errors, rows: null, finishedAt: at }).where(eq(ticketImports.id, id));
  },
};
