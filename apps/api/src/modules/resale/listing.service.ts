/**
 * Resale listings (spec sections 2 Resell, 4 Resell flow, 7): what a holder may list, the price
 * calculation, listing, unlisting, the seller's sales, and the public listing behind a share link.
 *
 * Rules: only the holder's tickets with event access unused, of a resellable type, whose event is
 * not over and is in Australia or New Zealand, not already listed; price per ticket at most the
 * type's cap, compared in integer cents; the buyer pays price + service fee (`resaleFeeBps`), the
 * seller is owed the price. Listing needs a verified payout account.
 */
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type { Holder } from '../../db/predicates.js';
import { currencySymbol, fromCents, toCents } from '../../lib/money.js';
import { resaleRepository as repo, type ListingRow } from './resale.repository.js';
import { ticketTypeTitle } from './resale.code.js';
import { createListingCreate } from './listing-create.js';

/** The settings the listing service reads: the resale fee (basis points), the countries resale is open in, the public URL (share links). */
export type ListingConfig = Pick<Config, 'resaleFeeBps' | 'resaleCountries' | 'publicUrl'>;

export interface ListingDeps {
  database: Database;
  config: ListingConfig;
  now: () => Date;
}

/**
 * The listing service: what a holder may list, the price calculation, listing (listing-create.ts), the seller's
 * listings, unlisting and the public listing behind a share link.
 */
export function createListingService(deps: ListingDeps) {
  const { config, now } = deps;
  const db = deps.database.db;
  const feeOf = (priceCents: number) => Math.round((priceCents * config.resaleFeeBps) / 10_000);
  const shareUrl = (token: string) => `${config.publicUrl}/r/${token}`;

  function toListing(row: {
    listing: ListingRow;
    type: { name: string; logo: string | null };
    event: { name: string };
    firstTicketId: number;
  }) {
    const l = row.listing;
    return {
      userTicketId: row.firstTicketId,
      name: ticketTypeTitle(row.event, row.type),
      ticketLogo: row.type.logo,
      price: fromCents(l.priceCents),
      currencySymbol: currencySymbol(l.currencyCode),
      currencyCode: l.currencyCode,
      listedDate: l.listedAt.toISOString(),
      soldDate: l.soldAt?.toISOString() ?? null,
      shareLinkUrl: shareUrl(l.shareToken),
      listingId: l.id,
      quantity: l.quantity,
      soldQuantity: l.soldQuantity,
      serviceFee: fromCents(l.feeCents),
      total: fromCents(l.priceCents + l.feeCents),
    };
  }

  return {
    /**
     * GET /resell/tickets/available: the holder's listable tickets, grouped by type. `ticketName` is
     * "Event · Type" (the entry has no event field and one holder may own the same type name at two events).
     * `preferUserTicketId` (the ticket the user came from) becomes the `userTicketId` of its group.
     */
    async available(holder: Holder, preferUserTicketId?: number) {
      const rows = await repo.availableByType(db, holder, now(), config.resaleCountries, preferUserTicketId);
      return rows.map((r) => ({
        userTicketId: r.firstTicketId,
        ticketId: r.type.id,
        ticketName: ticketTypeTitle(r.event, r.type),
        ticketLogo: r.type.logo,
        availableTicketCount: r.count,
        ticketPrice: fromCents(r.type.priceCents),
        maxTicketPrice: fromCents(r.type.maxResalePriceCents),
        currencyCode: r.type.currencyCode,
        currencySymbol: currencySymbol(r.type.currencyCode),
      }));
    },

    /**
     * POST /resell/ticket/calculation: price, fee and total for `quantity` tickets at `selectedPrice` each (major units).
     * @throws AppError `api.resell.calculation.ticket_not_found` (404), `invalid_prices` (400, above the cap).
     */
    async calculate(ticketTypeId: number, selectedPrice: number, quantity: number) {
      const row = await repo.typeWithEvent(db, ticketTypeId);
      if (!row) throw new AppError('api.resell.calculation.ticket_not_found');
      const priceCents = toCents(selectedPrice);
      if (priceCents > row.type.maxResalePriceCents) throw new AppError('invalid_prices');
      const fee = feeOf(priceCents);
      return {
        basePrice: fromCents(priceCents * quantity),
        serviceFee: fromCents(fee * quantity),
        totalPrice: fromCents((priceCents + fee) * quantity),
      };
    },

    ...createListingCreate(deps, { feeOf, shareUrl }),

    /** GET /resell/ticket/sales and /resell/tickets/sold (only the `X-Organisation` header's organisation's). */
    async listings(seller: Holder, which: 'SALE' | 'SOLD') {
      return (await repo.listingsOf(db, seller, which)).map(toListing);
    },

    /**
     * POST /resell/unlist: removes the live listing holding `userTicketId`; unsold tickets stay with the seller.
     * @throws AppError `api.resell.listing_not_found` (404).
     */
    async unlist(userId: number, userTicketId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const listing = await repo.liveListingOfTicket(tx, userId, userTicketId);
        if (!listing) throw new AppError('api.resell.listing_not_found');
        await repo.delist(tx, listing.id, now());
      });
    },

    /** The public listing behind a share link, or undefined. */
    async publicListing(token: string) {
      const row = await repo.listingByToken(db, token);
      if (!row) return undefined;
      const l = row.listing;
      return {
        ...row,
        remaining: l.status === 'LISTED' ? l.quantity - l.soldQuantity : 0,
        unitCents: l.priceCents + l.feeCents,
        currencyCode: l.currencyCode,
      };
    },
  };
}
export type ListingService = ReturnType<typeof createListingService>;
