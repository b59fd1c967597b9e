/**
 * Listing tickets for resale (spec sections 2 Resell, 4 Resell flow): POST /resell, with its checks (held,
 * unused, resellable, event open and in a resale country, price within the cap in integer cents, quantity) and
 * its `Idempotency-Key`. The rules are in listing.service.ts's header.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../lib/app-error.js';
import { isHeldBy, ticketMayMove, transfersClosed, type Holder } from '../../db/predicates.js';
import { toCents } from '../../lib/money.js';
import { resaleRepository as repo, type ListingRow } from './resale.repository.js';
import type { ListingDeps } from './listing.service.js';

/** What the listing service shares with this part: the fee of a price (cents) and a share token's public URL. */
interface ListingPricing {
  feeOf: (priceCents: number) => number;
  shareUrl: (token: string) => string;
}

/** The listing step of the listing service: `create`. */
export function createListingCreate(deps: ListingDeps, { feeOf, shareUrl }: ListingPricing) {
  const { config, now } = deps;
  const db = deps.database.db;
  return {
    /**
     * POST /resell: lists `amountCount` tickets of the type of `userTicketId` at `price` each.
     * Honours `Idempotency-Key`: the same request with a key already used returns the first listing; the key
     * with other parameters (ticket, quantity, price, currency) answers `api.idempotency_key_reused` (422).
     * @throws AppError `api.resell.create.no_stripe` (403), `api.resell.create.already_listed` (409),
     *   `api.resell.create.not_resellable` (409), `api.resell.not_supported_country` (400), `invalid_prices` (400),
     *   `api.resell.create.quantity_exceeded` (400), `api.invalid_request_body` (400, currency mismatch),
     *   `api.idempotency_key_reused` (422).
     */
    async create(
      holder: Holder,
      input: { userTicketId: number; amountCount: number; price: number; currencyCode: string },
      idempotencyKey?: string,
    ) {
      const { userId } = holder;
      if (idempotencyKey) {
        const existing = await repo.listingByIdempotencyKey(db, userId, idempotencyKey);
        if (existing) return sameListingRequest(existing);
      }
      /** The listing a key already made, if this request is the one it was made for (else 422). */
      async function sameListingRequest(listing: ListingRow) {
        const same =
          listing.quantity === input.amountCount &&
          listing.priceCents === toCents(input.price) &&
          listing.currencyCode === input.currencyCode.toUpperCase() &&
          (await repo.listingHasTicket(db, listing.id, input.userTicketId));
        if (!same) throw new AppError('api.idempotency_key_reused');
        return { shareLinkUrl: shareUrl(listing.shareToken) };
      }
      const account = await repo.payoutAccount(db, { userId });
      if (!account || account.status !== 'VERIFIED') throw new AppError('api.resell.create.no_stripe');
      const at = now();
      const written = await db.transaction(async (tx) => {
        const row = await repo.ticketWithType(tx, input.userTicketId);
        if (!row || !isHeldBy(row, holder)) throw new AppError('api.resell.create.not_resellable');
        if (row.onSale) throw new AppError('api.resell.create.already_listed');
        if (transfersClosed(row.event, at)) throw new AppError('api.ticket.transfers_closed');
        if (!ticketMayMove('resell', row, holder, at)) throw new AppError('api.resell.create.not_resellable');
        if (!config.resaleCountries.includes(row.event.country)) throw new AppError('api.resell.not_supported_country');
        if (input.currencyCode.toUpperCase() !== row.type.currencyCode) throw new AppError('api.invalid_request_body');
        const priceCents = toCents(input.price);
        if (priceCents > row.type.maxResalePriceCents || priceCents <= 0) throw new AppError('invalid_prices');
        const ids = await repo.lockEligible(tx, holder, row.type.id, row.ticket.id, at, input.amountCount);
        // A concurrent listing committed while we waited for the row lock: our first read was stale.
        if (!ids.includes(row.ticket.id)) throw new AppError('api.resell.create.already_listed');
        if (ids.length < input.amountCount) throw new AppError('api.resell.create.quantity_exceeded');
        return repo.insertListing(
          tx,
          {
            sellerId: userId,
            ticketTypeId: row.type.id,
            quantity: ids.length,
            priceCents,
            feeCents: feeOf(priceCents),
            currencyCode: row.type.currencyCode,
            status: 'LISTED',
            shareToken: randomBytes(12).toString('base64url'),
            idempotencyKey: idempotencyKey ?? null,
            listedAt: at,
          },
          ids,
        );
      });
      if (written.ok) return { shareLinkUrl: shareUrl(written.value.shareToken) };
      // Another request listed the same ticket (or used the same key) between our check and insert.
      const again = idempotencyKey ? await repo.listingByIdempotencyKey(db, userId, idempotencyKey) : undefined;
      if (again) return sameListingRequest(again);
      throw new AppError('api.resell.create.already_listed');
    },
  };
}
