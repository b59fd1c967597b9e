/**
 * An organisation's members (issue 21): add by e-mail with a role, list, remove; and the console's side of a
 * member's sign-in: which organisations an account belongs to. Roles are contract `ORG_ROLES`; what each opens
 * is `ORG_AREA_ROLES` (checked by org-auth.ts on every organiser request). Adding and removing are recorded in
 * the audit trail (issue 25) in their transaction, by account id (no e-mail in the entry).
 */
import type { members as contract, MessageKey, Membership, OrgRole } from '@tp/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EnsureUser } from './org-api/deps.js';
import type { RequestOrganisation } from '../organiser-scope/org-auth.js';
import { membersRepository as repo } from './members.repository.js';
import { appendAudit, type AuditActor } from '../audit/audit.repository.js';
import { pickLang, type Lang } from '../../lib/lang.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { organisationsRepository } from './organisations.repository.js';

const asRole = (role: string) => role as OrgRole;

/**
 * The one rule that every organisation keeps an owner (issue 21; issue 39 item 6), for a member removed by an
 * owner (DELETE /org/members/{id}) and for a member whose account is deleted (DELETE /auth/account): locks every
 * member row of the organisation first (`FOR UPDATE`, in `tx`), so two removals or account deletions of its owners
 * at once queue there and the second sees the first's outcome; refuses to remove the only owner; removes the
 * member and records `member.removed` (account id, role, and `detail` added by the caller) in the same
 * transaction.
 * @param which the member to remove: its member row id, or the account (user) id
 * @param lastOwner the message key thrown for the only owner (each caller names its own fix)
 * @param at the removal's time (UTC)
 * @returns false when the organisation has no such member (nothing removed)
 * @throws AppError `lastOwner` (409) when the member is the organisation's only owner.
 */
export async function removeMemberKeepingAnOwner(
  tx: DbOrTx,
  organisationId: number,
  which: { memberId: number } | { userId: number },
  change: { actor: AuditActor; at: Date; lastOwner: MessageKey; detail?: Record<string, unknown> },
): Promise<boolean> {
  const rows = await repo.lockMembersOf(tx, organisationId);
  const member = rows.find((m) => ('memberId' in which ? m.id === which.memberId : m.userId === which.userId));
  if (!member) return false;
  if (member.role === 'owner' && rows.filter((m) => m.role === 'owner').length === 1)
    throw new AppError(change.lastOwner);
  await repo.deleteMember(tx, member.id);
  await appendAudit(tx, organisationId, change.actor, change.at, {
    action: 'member.removed',
    resourceType: 'member',
    resourceId: member.id,
    detail: { userId: member.userId, role: member.role, ...change.detail },
  });
  return true;
}

export function createMembersService(deps: {
  database: Database;
  now: () => Date;
  ensureUser: EnsureUser;
  config: { publicUrl: string };
}) {
  const { db } = deps.database;
  return {
    /**
     * POST /org/members: the account of `email` (created when there is none, in `lang`: the language of the console
     * that adds it) becomes a member with `role`, and is e-mailed an invitation to the console (`memberInvited`, issue
     * 41 point 6) in the account's language under the organisation's brand, in the same transaction.
     * @param lang the adding console's language (`?lang=`, else Accept-Language; issue 41, re-walk)
     * @throws AppError `api.org.member_exists` (409) when it is one already.
     */
    async add(
      org: RequestOrganisation,
      body: contract.MemberCreateRequest,
      lang: Lang = 'en',
    ): Promise<contract.MemberItem> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const user = await deps.ensureUser(body.email, lang, tx);
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
          detail: { userId: user.id, email: body.email, role: body.role },
        });
        const organisation = await organisationsRepository.organisationById(tx, org.id);
        await enqueueMails(tx, at, [
          {
            template: 'memberInvited',
            to: body.email,
            locale: pickLang(user.locale),
            org: organisation ?? null,
            params: { role: body.role, link: new URL('/console', deps.config.publicUrl).toString() },
          },
        ]);
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
        // The removed member's e-mail as the entry of an added one has it (issue 41 point 12, re-walk).
        const email = await repo.memberEmail(tx, org.id, id);
        const change = {
          actor: org.actor,
          at: deps.now(),
          lastOwner: 'api.org.last_owner' as const,
          ...(email !== undefined && { detail: { email } }),
        };
        if (!(await removeMemberKeepingAnOwner(tx, org.id, { memberId: id }, change)))
          throw new AppError('api.org.member_not_found');
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
