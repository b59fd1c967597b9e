/** SQL of door keys (issue 20 point 4): an organisation's keys for its door scanners, stored hashed. */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { doorKeys, events } from '../../db/schema.js';

export const doorKeysRepository = {
  /** Inserts a key; returns its id. `eventIds` null: every event of the organisation. */
  async insert(
    db: DbOrTx,
    values: {
      organisationId: number;
      name: string;
      prefix: string;
      keyHash: string;
      eventIds: number[] | null;
      mode: 'entry' | 'exit';
      zone: string | null;
      createdAt: Date;
    },
  ): Promise<number> {
    const [row] = await db.insert(doorKeys).values(values).returning({ id: doorKeys.id });
    return row.id;
  },

  /** The organisation's keys that are not revoked, oldest first (never the hash). */
  async liveOf(db: DbOrTx, organisationId: number) {
    return db
      .select({
        id: doorKeys.id,
        name: doorKeys.name,
        prefix: doorKeys.prefix,
        eventIds: doorKeys.eventIds,
        mode: doorKeys.mode,
        zone: doorKeys.zone,
        createdAt: doorKeys.createdAt,
      })
      .from(doorKeys)
      .where(and(eq(doorKeys.organisationId, organisationId), isNull(doorKeys.revokedAt)))
      .orderBy(asc(doorKeys.id));
  },

  /** Sets `revokedAt` on a live key of the organisation; false when there is no such live key. */
  async revoke(db: DbOrTx, organisationId: number, id: number, at: Date): Promise<boolean> {
    const rows = await db
      .update(doorKeys)
      .set({ revokedAt: at })
      .where(and(eq(doorKeys.organisationId, organisationId), eq(doorKeys.id, id), isNull(doorKeys.revokedAt)))
      .returning({ id: doorKeys.id });
    return rows.length === 1;
  },

  /** Live keys with this public prefix (normally one), with what they admit to. */
  async liveByPrefix(db: DbOrTx, prefix: string) {
    return db
      .select({
        id: doorKeys.id,
        keyHash: doorKeys.keyHash,
        organisationId: doorKeys.organisationId,
        eventIds: doorKeys.eventIds,
        name: doorKeys.name,
        mode: doorKeys.mode,
        zone: doorKeys.zone,
      })
      .from(doorKeys)
      .where(and(eq(doorKeys.prefix, prefix), isNull(doorKeys.revokedAt)));
  },

  /** The organisation's events with these external ids: `{ id, externalId }`. */
  async eventsByExternalIds(db: DbOrTx, organisationId: number, externalIds: string[]) {
    if (externalIds.length === 0) return [];
    return db
      .select({ id: events.id, externalId: events.externalId })
      .from(events)
      .where(and(eq(events.organisationId, organisationId), inArray(events.externalId, externalIds)));
  },

  /** The external ids of these events (`{ id, externalId }`; null for events made otherwise). */
  async externalIdsOf(db: DbOrTx, eventIds: number[]) {
    if (eventIds.length === 0) return [];
    return db.select({ id: events.id, externalId: events.externalId }).from(events).where(inArray(events.id, eventIds));
  },
};
