/** SQL for the organisation shown in the panel header. */
import { asc } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisations } from '../../db/schema.js';

export const organisationRepository = {
  async first(db: DbOrTx) {
    const [row] = await db.select().from(organisations).orderBy(asc(organisations.id)).limit(1);
    return row;
  },
};
