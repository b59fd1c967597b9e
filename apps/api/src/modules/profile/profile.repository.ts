/** SQL for profile reads and writes. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema.js';

export const profileRepository = {
  async userById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },
  async userByPhone(db: DbOrTx, phoneNumber: string) {
    const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber));
    return row;
  },
  async updateUser(db: DbOrTx, id: number, set: Partial<typeof users.$inferInsert>) {
    const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning();
    return row;
  },
};
