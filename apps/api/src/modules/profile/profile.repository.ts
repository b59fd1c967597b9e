/** SQL for profile reads and writes. */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { preparedStatement } from '../../db/prepared.js';
import { users } from '../../db/schema.js';

/** /auth/me and every profile read. */
const userByIdStatement = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('profile_user_by_id'),
);

export const profileRepository = {
  async userById(db: DbOrTx, id: number) {
    const [row] = await userByIdStatement(db).execute({ id });
    return row;
  },
  async userByPhone(db: DbOrTx, phoneNumber: string) {
    const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber));
    return row;
  },
  async userByUsername(db: DbOrTx, nickname: string, suffix: number) {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.usernameSuffix, suffix), sql`lower(${users.nickname}) = lower(${nickname})`));
    return row;
  },
  async updateUser(db: DbOrTx, id: number, set: Partial<typeof users.$inferInsert>) {
    const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning();
    return row;
  },
};
