/**
 * My tickets (spec sections 2 My tickets / Ticket page, 3 My-ticket item and Benefit).
 * UPCOMING holds live and future events, PAST ended ones; `isLive` while start <= now < end.
 * Counts: event access plus benefits with purchasedAmount > 0; a benefit is used when
 * purchasedAmount equals usedAmount.
 *
 * Each instance keeps the listing rows it read (`LISTING_CACHE_CHARS` at most, decision 036): a holder's first listing
 * on the instance reads the whole rows (one statement); later ones read which tickets the holder holds with their row
 * versions (one narrow statement), then the whole rows of only the tickets whose version it does not keep. A change
 * to any row the item shows makes a new version (migration 0017), on whichever instance or path it is made, so a
 * listing never shows a row older than its version check.
 */
import type { Benefit, MyTicket, TicketStatus } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { ticketMayMove, type Holder } from '../../db/predicates.js';
import { refundWindow } from '../../lib/refund-policy.js';
import { ticketsRepository as repo, type BenefitRow, type TicketHead, type TicketRow } from './tickets.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Maps a held benefit for `holderId`; the redeem code shows only once unlocked, and only to the holder who
 * unlocked it. Unlocked by an earlier holder (the ticket was then gifted, resold or redeemed), it shows as
 * claimed: used in full, no code (issue 13, privacy).
 */
export function toBenefit({ held, benefit }: BenefitRow, holderId: number | null): Benefit {
  const claimedByEarlierHolder = held.unlockedAt !== null && held.unlockedBy !== holderId;
  return {
    userTicketBenefitId: held.id,
    name: benefit.name,
    shortDescription: benefit.shortDescription,
    fullDescription: benefit.fullDescription,
    type: benefit.type,
    icon: benefit.icon,
    iconColor: benefit.iconColor,
    iconBgColor: benefit.iconBgColor,
    image: benefit.image,
    purchasedAmount: held.purchasedAmount,
    usedAmount: claimedByEarlierHolder ? held.purchasedAmount : held.usedAmount,
    lastUsedDate: iso(claimedByEarlierHolder ? (held.lastUsedAt ?? held.unlockedAt) : held.lastUsedAt),
    validUntil: iso(benefit.validUntil),
    redeemCode: held.unlockedAt && !claimedByEarlierHolder ? benefit.redeemCode : null,
    isUnlockable: benefit.isUnlockable,
  };
}

/**
 * The ticket's refund side (`MyTicket.refund`, issue 46): `requestable` while the event's policy takes a request
 * (`refundWindow`) and the ticket is neither used nor held back (on sale, or its refund already pending); `until` the
 * policy's end; `request` the latest pending or declined one. Undefined when the policy is `none` and there is none.
 */
export function refundOf(row: TicketRow, now: Date): MyTicket['refund'] {
  const { event, ticket } = row;
  if (event.refundPolicy === 'none' && row.refund === null) return undefined;
  const window = refundWindow(event, now);
  return {
    requestable: window.open && ticket.eventAccessUsedAt === null && !row.listed,
    until: iso(window.until),
    request: row.refund && { ...row.refund, createdAt: new Date(row.refund.createdAt).toISOString() },
  };
}

/**
 * Maps a ticket row held by `holder` and its benefits to the My-ticket item. `isGiftable`, `isResellable` and
 * `isSwappable` are the "may this ticket move" rule (db/predicates.ts), so they agree with what gift, resale
 * and swap accept: false once event access is used, the event is over or the ticket is on sale (listed for resale
 * or returned to an exchange queue, `isReturnedToExchange`).
 */
export function toMyTicket(row: TicketRow, holder: Holder, now: Date): MyTicket {
  const { ticket, type, event } = row;
  const shown = row.benefits.filter((b) => b.held.purchasedAmount > 0).map((b) => toBenefit(b, ticket.holderId));
  const accessUsed = ticket.eventAccessUsedAt !== null;
  const refund = refundOf(row, now);
  return {
    userTicketId: ticket.id,
    ticketLogo: type.logo,
    ticketName: type.name,
    ticketDescription: type.description,
    eventName: event.name,
    eventCity: event.city,
    eventVenue: event.venue,
    eventAddress1: event.address1,
    eventLatitude: event.latitude,
    eventLongitude: event.longitude,
    eventDescription: event.description,
    eventLogo: event.logo,
    eventImage: event.image,
    eventStartDateTime: event.startsAt.toISOString(),
    eventEndDateTime: event.endsAt.toISOString(),
    eventTimeZone: event.timeZone,
    isLive: event.startsAt <= now && now < event.endsAt,
    isGiftable: ticketMayMove('gift', row, holder, now),
    isResellable: ticketMayMove('resell', row, holder, now),
    isSwappable: ticketMayMove('swap', row, holder, now),
    isReturnedToExchange: row.returned,
    // Beyond the spec (issue 46): the organiser cancelled the event; the ticket stays listed, does not admit or move.
    ...(event.cancelledAt
      ? { eventCancelled: { at: event.cancelledAt.toISOString(), reason: event.cancelReason } }
      : {}),
    // Beyond the spec (issue 46, decision 047): the event moved to a new date; the ticket stays valid.
    ...(event.rescheduledAt ? { eventRescheduled: { at: event.rescheduledAt.toISOString() } } : {}),
    ...(refund ? { refund } : {}),
    // Issue 48 (decision 050): what the pass admits and what it has done, for the ticket page and the QR screen.
    ...(type.entryRules && {
      entryRules: type.entryRules,
      scans: (row.scans ?? []).map((s) => ({ ...s, at: new Date(s.at).toISOString() })),
    }),
    eventAccessStatus: accessUsed ? 'USED' : 'UNUSED',
    eventAccessUsedOn: iso(ticket.eventAccessUsedAt),
    totalBenefitCount: 1 + shown.length,
    totalBenefitUsedCount: (accessUsed ? 1 : 0) + shown.filter((b) => b.usedAmount >= b.purchasedAmount).length,
    benefits: shown,
  };
}

/**
 * The most listing rows an instance keeps, in characters of their JSON (about bytes: 32 MiB): counted by size, not
 * by tickets, since an organiser's texts make a row anything from 1 KB to over 100 KB. The oldest kept goes first.
 */
export const LISTING_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * @param deps.keptChars the most characters of kept listing rows (default `LISTING_CACHE_CHARS`)
 */
export function createTicketsService(deps: { database: Database; now: () => Date; keptChars?: number }) {
  const keptChars = deps.keptChars ?? LISTING_CACHE_CHARS;
  const db = deps.database.db;
  /** Kept listing rows by userTicketId, oldest first, each with its version and size. */
  const kept = new Map<number, { version: string; row: TicketRow; chars: number }>();
  let keptTotal = 0;
  /**
   * Holders whose listing this instance answered (emptied past 100,000): another holder's first listing reads the
   * whole rows in one statement, as a listing without kept rows would, rather than the versions first.
   */
  const listedHolders = new Set<number>();
  const forget = (id: number) => {
    keptTotal -= kept.get(id)?.chars ?? 0;
    kept.delete(id);
  };
  /** Keeps each row (with the version it was read at) and answers the rows alone, in their order. */
  const keepAll = (read: (TicketRow & { version: string })[]): TicketRow[] =>
    read.map(({ version, ...row }) => {
      const id = row.ticket.id;
      forget(id);
      const chars = JSON.stringify(row).length;
      if (chars <= keptChars) {
        while (keptTotal + chars > keptChars) forget(kept.keys().next().value!);
        kept.set(id, { version, row, chars });
        keptTotal += chars;
      }
      return row;
    });

  /**
   * The rows of `heads`, in their order: the kept ones whose version matches, the others read now (and kept). A
   * ticket that moved away between the two reads is left out.
   */
  async function rowsOf(holder: Holder, heads: TicketHead[]): Promise<TicketRow[]> {
    const rows = new Map<number, TicketRow>();
    const stale: number[] = [];
    for (const head of heads) {
      const entry = kept.get(head.id);
      if (entry?.version === head.version) rows.set(head.id, entry.row);
      else stale.push(head.id);
    }
    if (stale.length) for (const row of keepAll(await repo.rowsByIds(db, holder, stale))) rows.set(row.ticket.id, row);
    return heads.flatMap((head) => rows.get(head.id) ?? []);
  }

  return {
    /** GET /list/ticket_listing?status= (only the header's organisation's tickets with `X-Organisation`) */
    async list(holder: Holder, status: TicketStatus): Promise<MyTicket[]> {
      const now = deps.now();
      let rows: TicketRow[];
      if (listedHolders.has(holder.userId))
        rows = await rowsOf(holder, await repo.listByHolder(db, holder, status, now));
      else {
        rows = keepAll(await repo.listRowsByHolder(db, holder, status, now));
        if (listedHolders.size >= 100_000) listedHolders.clear();
        listedHolders.add(holder.userId);
      }
      return rows.map((row) => toMyTicket(row, holder, now));
    },
    /**
     * GET /list/ticket_listing/{ticketUserId}
     * @throws AppError `api.ticket.not_found` (404) when the caller does not hold it, or it belongs to another
     *   organisation than the `X-Organisation` header names.
     */
    async one(holder: Holder, userTicketId: number): Promise<MyTicket> {
      const now = deps.now();
      const head = await repo.oneByHolder(db, holder, userTicketId);
      const [row] = head ? await rowsOf(holder, [head]) : [];
      if (!row) throw new AppError('api.ticket.not_found');
      return toMyTicket(row, holder, now);
    },
  };
}
export type TicketsService = ReturnType<typeof createTicketsService>;
