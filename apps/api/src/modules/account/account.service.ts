/**
 * Account rights (issue 13, item 6; beyond the spec, docs/decisions/001): export my data, sign out of
 * every other device, delete my account.
 *
 * Deletion is refused while the holder has tickets to upcoming events or live resale listings (their
 * tickets would be lost or sold by nobody), or is the only owner of an organisation (issue 39, item 6: it
 * would be left with no one to run it); otherwise, in one transaction, the account leaves every organisation
 * it is a member of (recorded in each one's audit trail), personal data is erased in place (e-mail, names,
 * phone, picture, nickname), every sign-in is revoked, and the rows that history needs (tickets, ownership
 * moves, listings, orders, payouts) stay, pointing at the anonymous row. The avatar file is removed after
 * commit.
 */
import type { AccountExport } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { StorageProvider } from '../../providers/storage/storage.provider.js';
import { toUser } from '../auth/auth.users.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { ListingService } from '../resale/listing.service.js';
import type { EarningsService } from '../resale/earnings.service.js';
import { membersRepository } from '../organisations/members.repository.js';
import { removeMemberKeepingAnOwner } from '../organisations/members.service.js';
import { accountRepository as repo } from './account.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The e-mail a deleted account keeps: unique, undeliverable (RFC 2606 `.invalid`), no personal data. */
export const deletedEmail = (userId: number) => `deleted-${userId}@deleted.invalid`;

export function createAccountService(deps: {
  database: Database;
  now: () => Date;
  tickets: TicketsService;
  listings: ListingService;
  earnings: EarningsService;
  storage: StorageProvider;
}) {
  const db = deps.database.db;
  return {
    /**
     * GET /auth/export: the holder's data as one JSON document (profile, tickets upcoming and past,
     * listings, resale orders, earnings, sign-ins, passkeys). `currentSessionId` marks the caller's sign-in.
     * @throws AppError `api.unauthorized` when the user no longer exists.
     */
    async exportData(userId: number, currentSessionId: string): Promise<AccountExport> {
      const u = await repo.user(db, userId);
      if (!u) throw new AppError('api.unauthorized');
      const [upcoming, past, sale, sold, orders, earnings, sessions, passkeys] = await Promise.all([
        // Every organisation's tickets: the export is the account's, not one panel's.
        deps.tickets.list({ userId, organisationId: null }, 'UPCOMING'),
        deps.tickets.list({ userId, organisationId: null }, 'PAST'),
        deps.listings.listings({ userId, organisationId: null }, 'SALE'),
        deps.listings.listings({ userId, organisationId: null }, 'SOLD'),
        repo.ordersOf(db, userId, u.email),
        deps.earnings.of(userId),
        repo.sessionsOf(db, userId),
        repo.passkeysOf(db, userId),
      ]);
      const listings = [...sale, ...sold.filter((s) => !sale.some((l) => l.listingId === s.listingId))];
      return {
        exportedAt: deps.now().toISOString(),
        profile: toUser(u),
        tickets: [...upcoming, ...past],
        listings,
        orders: orders.map(({ order, type, event }) => ({
          orderId: order.id,
          eventName: event.name,
          ticketName: type.name,
          quantity: order.quantity,
          totalCents: order.totalCents,
          currencyCode: order.currencyCode,
          status: order.status,
          createdAt: order.createdAt.toISOString(),
          paidAt: iso(order.paidAt),
          redeemedAt: order.redeemedBy === userId ? iso(order.redeemedAt) : null,
        })),
        earnings,
        sessions: sessions.map((s) => ({
          id: s.id,
          createdAt: s.createdAt.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
          revokedAt: iso(s.revokedAt),
          current: s.id === currentSessionId,
        })),
        passkeys: passkeys.map((p) => ({
          ...p,
          createdAt: p.createdAt.toISOString(),
          lastUsedAt: iso(p.lastUsedAt),
        })),
      };
    },

    /** POST /auth/logout-others: revokes every other sign-in of the user; the caller's keeps working. */
    async logoutOthers(userId: number, currentSessionId: string): Promise<{ revoked: number }> {
      return { revoked: await repo.revokeSessions(db, userId, currentSessionId, deps.now()) };
    },

    /**
     * DELETE /auth/account: erases the caller's personal data and passkeys and ends every sign-in. The account leaves each
     * organisation it is a member of under the members' rule that an organisation keeps an owner
     * (`removeMemberKeepingAnOwner`: the organisation's member rows locked, so two owners deleting their
     * accounts at once cannot both leave it), each removal recorded in that organisation's audit trail with the
     * member as actor (`ip`: the request's) and `detail.reason` `account_deleted`.
     * @param ip the request's IP (`request.ip`), for the audit trail
     * @throws AppError `api.account.has_upcoming_tickets` (409) while the caller holds tickets to events not over,
     *   `api.account.has_listings` (409) while a resale listing of theirs is live, `api.account.last_owner` (409)
     *   while the caller is the only owner of an organisation, `api.unauthorized` (401).
     */
    async deleteAccount(userId: number, ip: string | null = null): Promise<void> {
      const at = deps.now();
      const picture = await db.transaction(async (tx) => {
        const u = await repo.user(tx, userId, true);
        if (!u || u.deletedAt) throw new AppError('api.unauthorized');
        if ((await repo.liveListingCount(tx, userId)) > 0) throw new AppError('api.account.has_listings');
        if ((await repo.upcomingTicketCount(tx, userId, at)) > 0)
          throw new AppError('api.account.has_upcoming_tickets');
        // In organisation id order, so two deletions lock the organisations' member rows in the same order.
        const organisationIds = (await membersRepository.membershipsOf(tx, userId))
          .map((m) => m.organisationId)
          .sort((a, b) => a - b);
        const change = {
          actor: { kind: 'console_member' as const, id: userId, ip },
          at,
          lastOwner: 'api.account.last_owner' as const,
          detail: { reason: 'account_deleted' },
        };
        for (const organisationId of organisationIds)
          await removeMemberKeepingAnOwner(tx, organisationId, { userId }, change);
        await repo.erase(tx, u, deletedEmail(userId), at);
        await repo.revokeSessions(tx, userId, null, at);
        return u.picture;
      });
      if (picture) await deps.storage.remove(picture).catch(() => undefined);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
