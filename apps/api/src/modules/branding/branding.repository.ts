/** SQL for an organisation's public branding and the X-Organisation header (issue 12, point 3). */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisations } from '../../db/schema.js';

export const brandingRepository = {
  /** The organisation with this slug, or undefined. */
  async bySlug(db: DbOrTx, slug: string) {
    const [row] = await db.select().from(organisations).where(eq(organisations.slug, slug)).limit(1);
    return row;
  },
};
