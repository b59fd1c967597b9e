/** SQL of organisations and their API keys (issue 12). */
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationApiKeys, organisations } from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique-violation.js';

export type OrganisationRow = typeof organisations.$inferSelect;
export type ApiKeyRow = typeof organisationApiKeys.$inferSelect;

/** A key works while not revoked and not past its rotation overlap. */
const live = (now: Date) =>
  and(
    isNull(organisationApiKeys.revokedAt),
    or(isNull(organisationApiKeys.expiresAt), gt(organisationApiKeys.expiresAt, now)),
  );

export const organisationsRepository = {
  /** Live keys with this public prefix (normally one), with their organisation's slug. */
  async liveKeysByPrefix(db: DbOrTx, prefix: string, now: Date) {
    return db
      .select({
        id: organisationApiKeys.id,
        keyHash: organisationApiKeys.keyHash,
        organisationId: organisations.id,
        slug: organisations.slug,
      })
      .from(organisationApiKeys)
      .innerJoin(organisations, eq(organisations.id, organisationApiKeys.organisationId))
      .where(and(eq(organisationApiKeys.prefix, prefix), live(now)));
  },

  /** Inserts an organisation; undefined when the slug is taken. */
  async insertOrganisation(
    db: DbOrTx,
    values: typeof organisations.$inferInsert,
  ): Promise<OrganisationRow | undefined> {
    try {
      const [row] = await db.insert(organisations).values(values).returning();
      return row;
    } catch (err) {
      if (uniqueViolation(err)) return undefined;
      throw err;
    }
  },

  async organisationById(db: DbOrTx, id: number): Promise<OrganisationRow | undefined> {
    const [row] = await db.select().from(organisations).where(eq(organisations.id, id));
    return row;
  },

  /** Sets the given fields of an organisation; returns the row as it now is. */
  async updateOrganisation(
    db: DbOrTx,
    id: number,
    values: Partial<typeof organisations.$inferInsert>,
  ): Promise<OrganisationRow | undefined> {
    if (Object.keys(values).length === 0) return this.organisationById(db, id);
    const [row] = await db.update(organisations).set(values).where(eq(organisations.id, id)).returning();
    return row;
  },

  async organisationBySlug(db: DbOrTx, slug: string): Promise<OrganisationRow | undefined> {
    const [row] = await db.select().from(organisations).where(eq(organisations.slug, slug));
    return row;
  },

  async insertKey(
    db: DbOrTx,
    values: { organisationId: number; prefix: string; keyHash: string; createdAt: Date },
  ): Promise<ApiKeyRow> {
    const [row] = await db.insert(organisationApiKeys).values(values).returning();
    return row;
  },

  /** Gives every live key of the organisation but `keepId` an end at `expiresAt` (sooner ends are kept). */
  async expireOtherKeys(db: DbOrTx, organisationId: number, keepId: number, expiresAt: Date, now: Date) {
    const rows = await db
      .select({ id: organisationApiKeys.id, expiresAt: organisationApiKeys.expiresAt })
      .from(organisationApiKeys)
      .where(and(eq(organisationApiKeys.organisationId, organisationId), live(now)));
    for (const r of rows)
      if (r.id !== keepId && (r.expiresAt === null || r.expiresAt > expiresAt))
        await db.update(organisationApiKeys).set({ expiresAt }).where(eq(organisationApiKeys.id, r.id));
  },

  /**
   * Sets `revokedAt` on one key of the organisation (row locked): `{ prefix }` of the key revoked now, `{ prefix: null }`
   * when it was revoked already, null when there is no such key.
   */
  async revokeKey(
    db: DbOrTx,
    organisationId: number,
    keyId: number,
    at: Date,
  ): Promise<{ prefix: string | null } | null> {
    const [row] = await db
      .select({
        id: organisationApiKeys.id,
        prefix: organisationApiKeys.prefix,
        revokedAt: organisationApiKeys.revokedAt,
      })
      .from(organisationApiKeys)
      .where(and(eq(organisationApiKeys.organisationId, organisationId), eq(organisationApiKeys.id, keyId)))
      .for('update');
    if (!row) return null;
    if (row.revokedAt) return { prefix: null };
    await db.update(organisationApiKeys).set({ revokedAt: at }).where(eq(organisationApiKeys.id, keyId));
    return { prefix: row.prefix };
  },

  async keysOf(db: DbOrTx, organisationId: number): Promise<ApiKeyRow[]> {
    return db
      .select()
      .from(organisationApiKeys)
      .where(eq(organisationApiKeys.organisationId, organisationId))
      .orderBy(asc(organisationApiKeys.id));
  },
};
