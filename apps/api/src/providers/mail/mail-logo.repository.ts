/** The SQL of the organisations' mail logos (table `organisation_logos`; providers/mail/mail-logo.ts). */
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationLogos, organisations } from '../../db/schema.js';

export const mailLogoRepository = {
  /** The organisation's slug and logo URL now (as stored, maybe a path), or null when it is gone. */
  async organisationLogoUrl(
    db: DbOrTx,
    organisationId: number,
  ): Promise<{ slug: string; logoUrl: string | null } | null> {
    const [row] = await db
      .select({ slug: organisations.slug, logoUrl: organisations.logoUrl })
      .from(organisations)
      .where(eq(organisations.id, organisationId));
    return row ?? null;
  },

  /** Keeps `png`, made from `sourceUrl` at `at`, as the organisation's mail logo (replacing the one it had). */
  async store(db: DbOrTx, organisationId: number, sourceUrl: string, png: Buffer, at: Date): Promise<void> {
    await db
      .insert(organisationLogos)
      .values({ organisationId, sourceUrl, png, fetchedAt: at })
      .onConflictDoUpdate({ target: organisationLogos.organisationId, set: { sourceUrl, png, fetchedAt: at } });
  },

  /** Drops the organisation's mail logo made from `sourceUrl` (a refused fetch of that URL), if it has one. */
  async drop(db: DbOrTx, organisationId: number, sourceUrl: string): Promise<void> {
    await db
      .delete(organisationLogos)
      .where(and(eq(organisationLogos.organisationId, organisationId), eq(organisationLogos.sourceUrl, sourceUrl)));
  },

  /**
   * The PNG of the organisation `slug`'s mail logo when it was made from its logo URL as it is now; null when it has
   * no logo, or none fetched from that URL (not yet, refused, or the URL changed since).
   */
  async pngBySlug(db: DbOrTx, slug: string): Promise<Buffer | null> {
    const [row] = await db
      .select({ png: organisationLogos.png })
      .from(organisationLogos)
      .innerJoin(organisations, eq(organisations.id, organisationLogos.organisationId))
      .where(and(eq(organisations.slug, slug), eq(organisations.logoUrl, organisationLogos.sourceUrl)));
    return row?.png ?? null;
  },
};
