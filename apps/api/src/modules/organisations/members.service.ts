/**
 * An organisation's members (issue 21): add by e-mail with a role, list, remove; and the console's side of a
 * member's sign-in: which organisations an account belongs to. Roles are contract `ORG_ROLES`; what each opens
 * is `ORG_AREA_ROLES` (checked by org-auth.ts on every organiser request). Adding and removing are recorded in
 * the audit trail (issue 25) in their transaction, by account id (no e-mail in the entry).
 */
import type { members as contract, Membership, OrgRole } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EnsureUser } from './org-api/deps.js';
import type { RequestOrganisation } from './org-auth.js';
import { membersRepository as repo } from './members.repository.js';
import { appendAudit } from '../audit/audit.repository.js';

const asRole = (role: string) => role as OrgRole;

export function createMembersService(deps: { database: Database; now: () => Date; ensureUser: EnsureUser }) {
  const { db } = deps.database;
  return {
    /**
     * POST /org/members: the account of `email` (created when there is none, in English until its first
     * sign-in) becomes a member with `role`.
     * @throws AppError `api.org.member_exists` (409) when it is one already.
     */
    async add(org: RequestOrganisation, body: contract.MemberCreateRequest): Promise<contract.MemberItem> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const user = await deps.ensureUser(body.email, 'en', tx);
        const row = await repo.insertMember(tx, {
          organisationId: org.id,
          userId: user.id,
          role: body.role,
          createdAt: at,
        });
        if (!row) throw new AppError('api.org.member_exists');
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'member.added',
          resourceType: 'member',
          resourceId: row.id,
          detail: { userId: user.id, role: body.role },
        });
        return { id: row.id, email: body.email, role: body.role, createdAt: at.toISOString() };
      });
    },

    /** GET /org/members: the organisation's members, oldest first. */
    async list(org: RequestOrganisation): Promise<contract.MemberItem[]> {
      const rows = await repo.membersOf(db, org.id);
      return rows.map((m) => ({
        id: m.id,
        email: m.email,
        role: asRole(m.role),
        createdAt: m.createdAt.toISOString(),
      }));
    },

    /**
     * DELETE /org/members/{id}: the member loses access at its next request (the role is read on each).
     * @throws AppError `api.org.member_not_found` (404), `api.org.last_owner` (409) for the only owner.
     */
    async remove(org: RequestOrganisation, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await repo.lockMembersOf(tx, org.id);
        const member = rows.find((m) => m.id === id);
        if (!member) throw new AppError('api.org.member_not_found');
        if (member.role === 'owner' && rows.filter((m) => m.role === 'owner').length === 1)
          throw new AppError('api.org.last_owner');
        await repo.deleteMember(tx, id);
        await appendAudit(tx, org.id, org.actor, deps.now(), {
          action: 'member.removed',
          resourceType: 'member',
          resourceId: id,
          detail: { userId: member.userId, role: member.role },
        });
      });
    },

    /** GET /console/organisations: the organisations the account is a member of, and its role in each. */
    async membershipsOf(userId: number): Promise<Membership[]> {
      const rows = await repo.membershipsOf(db, userId);
      return rows.map((m) => ({ ...m, role: asRole(m.role) }));
    },

    /**
     * The account's membership of one organisation (POST /console/session).
     * @throws AppError `api.org.not_a_member` (403).
     */
    async membershipOf(userId: number, organisationId: number): Promise<Membership> {
      const found = (await repo.membershipsOf(db, userId)).find((m) => m.organisationId === organisationId);
      if (!found) throw new AppError('api.org.not_a_member');
      return { ...found, role: asRole(found.role) };
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
