/**
 * My tickets (spec sections 2 My tickets / Ticket page, 3 My-ticket item and Benefit).
 * UPCOMING holds live and future events, PAST ended ones; `isLive` while start <= now < end.
 * Counts: event access plus benefits with purchasedAmount > 0; a benefit is used when
 * purchasedAmount equals usedAmount.
 */
import type { Benefit, MyTicket, TicketStatus } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { ticketMayMove, type Holder } from '../../db/predicates.js';
import { ticketsRepository as repo, type BenefitRow, type TicketRow } from './tickets.repository.js';

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
 * Maps a ticket row held by `holder` and its benefits to the My-ticket item. `isGiftable`, `isResellable` and
 * `isSwappable` are the "may this ticket move" rule (db/predicates.ts), so they agree with what gift, resale
 * and swap accept: false once event access is used, the event is over or the ticket is listed for resale.
 */
export function toMyTicket(row: TicketRow, holder: Holder, now: Date): MyTicket {
  const { ticket, type, event } = row;
  const shown = row.benefits.filter((b) => b.held.purchasedAmount > 0).map((b) => toBenefit(b, ticket.holderId));
  const accessUsed = ticket.eventAccessUsedAt !== null;
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
    eventAccessStatus: accessUsed ? 'USED' : 'UNUSED',
    eventAccessUsedOn: iso(ticket.eventAccessUsedAt),
    totalBenefitCount: 1 + shown.length,
    totalBenefitUsedCount: (accessUsed ? 1 : 0) + shown.filter((b) => b.usedAmount >= b.purchasedAmount).length,
    benefits: shown,
  };
}

export function createTicketsService(deps: { database: Database; now: () => Date }) {
  const db = deps.database.db;
  return {
    /** GET /list/ticket_listing?status= (only the header's organisation's tickets with `X-Organisation`) */
    async list(holder: Holder, status: TicketStatus): Promise<MyTicket[]> {
      const now = deps.now();
      return (await repo.listByHolder(db, holder, status, now)).map((row) => toMyTicket(row, holder, now));
    },
    /**
     * GET /list/ticket_listing/{ticketUserId}
     * @throws AppError `api.ticket.not_found` (404) when the caller does not hold it, or it belongs to another
     *   organisation than the `X-Organisation` header names.
     */
    async one(holder: Holder, userTicketId: number): Promise<MyTicket> {
      const now = deps.now();
      const row = await repo.oneByHolder(db, holder, userTicketId);
      if (!row) throw new AppError('api.ticket.not_found');
      return toMyTicket(row, holder, now);
    },
  };
}
export type TicketsService = ReturnType<typeof createTicketsService>;
