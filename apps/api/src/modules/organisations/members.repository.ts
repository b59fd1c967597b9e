/** SQL of an organisation's members (issue 21): who signs in to the console, with which role. */
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationMembers, organisations, users } from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique-violation.js';

export type MemberRow = typeof organisationMembers.$inferSelect;

const memberColumns = {
  id: organisationMembers.id,
  email: users.email,
  role: organisationMembers.role,
  createdAt: organisationMembers.createdAt,
};

export const membersRepository = {
  /** Adds a member; undefined when the account is already a member of the organisation. */
  async insertMember(db: DbOrTx, values: typeof organisationMembers.$inferInsert): Promise<MemberRow | undefined> {
    try {
      const [row] = await db.insert(organisationMembers).values(values).returning();
      return row;
    } catch (err) {
      if (uniqueViolation(err)) return undefined;
      throw err;
    }
  },

  /** The organisation's members with their e-mail, oldest first. */
  async membersOf(db: DbOrTx, organisationId: number) {
    return db
      .select(memberColumns)
      .from(organisationMembers)
      .innerJoin(users, eq(users.id, organisationMembers.userId))
      .where(eq(organisationMembers.organisationId, organisationId))
      .orderBy(asc(organisationMembers.createdAt), asc(organisationMembers.id));
  },

  /**
   * Locks every member row of the organisation (`FOR UPDATE`) and returns their ids and roles: two removals of
   * owners at once queue here, so the last owner is never removed by a race.
   */
  async lockMembersOf(tx: DbOrTx, organisationId: number) {
    return tx
      .select({ id: organisationMembers.id, userId: organisationMembers.userId, role: organisationMembers.role })
      .from(organisationMembers)
      .where(eq(organisationMembers.organisationId, organisationId))
      .orderBy(asc(organisationMembers.id))
      .for('update');
  },

  /** The e-mail of the organisation's member `id` (a member row id); undefined when there is no such member. */
  async memberEmail(db: DbOrTx, organisationId: number, id: number): Promise<string | undefined> {
    const [row] = await db
      .select({ email: users.email })
      .from(organisationMembers)
      .innerJoin(users, eq(users.id, organisationMembers.userId))
      .where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.id, id)));
    return row?.email;
  },

  async deleteMember(tx: DbOrTx, id: number): Promise<void> {
    await tx.delete(organisationMembers).where(eq(organisationMembers.id, id));
  },

  /** The account's role in the organisation, with the organisation's slug; undefined when not a member. */
  async membership(db: DbOrTx, organisationId: number, userId: number) {
    const [row] = await db
      .select({ role: organisationMembers.role, slug: organisations.slug })
      .from(organisationMembers)
      .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
      .where(and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)));
    return row;
  },

  /** Every organisation the account is a member of, by name. */
  async membershipsOf(db: DbOrTx, userId: number) {
    return db
      .select({
        organisationId: organisations.id,
        slug: organisations.slug,
        name: organisations.name,
        role: organisationMembers.role,
      })
      .from(organisationMembers)
      .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
      .where(eq(organisationMembers.userId, userId))
      .orderBy(asc(organisations.name), asc(organisations.id));
  },
};
