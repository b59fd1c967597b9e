/**
 * Resale (spec sections 2 Resell/Redeem, 4 Resell flow, 5, 6, 8, 9).
 *
 * Rules: only the holder's tickets with event access unused, of a resellable type, whose event is
 * not over and is in Australia or New Zealand, not already listed; price per ticket at most the
 * type's cap, compared in integer cents; the buyer pays price + service fee (`resaleFeeBps`), the
 * seller is owed the price. Listing needs a verified payout account. On payment, in one transaction,
 * the tickets leave the seller and are held under a single-use secret code (80 random bits, stored
 * as SHA-256); redeeming moves them to the redeemer.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import { sendMailOrLog, type MailFailureLog, type MailProvider } from '../../providers/mail/mail.provider.js';
import type { PayoutProvider, PayoutEvent } from '../../providers/payouts/payout.provider.js';
import { listingSoldMail, resaleCodeMail, type MailLocale } from '../../providers/mail/templates.js';
import { AppError } from '../../lib/app-error.js';
import { ticketMayMove } from '../../db/predicates.js';
import { currencySymbol, fromCents, toCents } from '../../lib/money.js';
import { resaleRepository as repo, type ListingRow } from './resale.repository.js';
import { renderCodePdf } from './resale.pdf.js';

const hashCode = (code: string) =>
  createHash('sha256').update(code.trim().toUpperCase().replace(/[\s-]/g, '')).digest('hex');
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A 16-character Crockford base32 code (80 bits), shown in groups of four. */
function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out.match(/.{4}/g)!.join('-');
}

/** How resale names a ticket type to its holder: "Event · Type" (as redeem does). */
const displayName = (event: { name: string }, type: { name: string }) => `${event.name} · ${type.name}`;

export interface ResaleDeps {
  database: Database;
  config: Config;
  mail: MailProvider;
  /** Where a failed code mail is logged. */
  log: MailFailureLog;
  payouts: PayoutProvider;
  now: () => Date;
  userEmail: (userId: number) => Promise<string>;
  /** The e-mail and language of a user (the seller's sale notice). */
  userContact: (userId: number) => Promise<{ email: string; locale: string }>;
}

export function createResaleService(deps: ResaleDeps) {
  const { config, payouts, now } = deps;
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
      name: displayName(row.event, row.type),
      ticketLogo: row.type.logo,
      price: fromCents(l.priceCents),
      currencySymbol: currencySymbol(l.currencyCode),
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

  /** Pays an order: the one transaction that moves tickets from the seller to a code. Returns the code once. */
  async function payOrder(orderId: string): Promise<{ code: string } | null> {
    const at = now();
    const code = newCode();
    const result = await db.transaction(async (tx) => {
      const row = await repo.order(tx, orderId, true);
      if (!row) throw new AppError('api.resell.order_not_found');
      if (row.order.status !== 'PENDING') return null;
      const listing = (await repo.lockListing(tx, row.listing.id))!;
      const ids = listing.status === 'LISTED' ? await repo.lockListedTickets(tx, listing.id, row.order.quantity) : [];
      if (ids.length < row.order.quantity) {
        await repo.markOrderFailed(tx, orderId);
        return 'unavailable' as const;
      }
      await repo.sell(tx, {
        listing,
        orderId,
        ticketIds: ids,
        codeHash: hashCode(code),
        payoutCents: row.order.totalCents - row.order.feeCents,
        at,
      });
      return { row };
    });
    if (result === 'unavailable') throw new AppError('api.resell.listing_unavailable');
    if (!result) return null;
    const { order, event, type } = result.row;
    const lang = (order.locale === 'es' ? 'es' : 'en') as MailLocale;
    const redeemUrl = `${config.publicUrl}/${lang}/?PANEL_TAB=REDEEM`;
    const pdf = await renderCodePdf({
      lang,
      eventName: event.name,
      venue: event.venue,
      city: event.city,
      startsAt: event.startsAt,
      timeZone: event.timeZone,
      ticketName: type.name,
      quantity: order.quantity,
      code,
      redeemUrl,
    });
    // The order is paid and the tickets are held under the code: the mail is tried 3 times (0.5 s then 1 s
    // apart), then its failure is logged with the order id.
    await sendMailOrLog(
      deps.mail,
      {
        to: order.buyerEmail,
        ...resaleCodeMail(lang, { eventName: event.name, quantity: order.quantity, code, link: redeemUrl }),
        attachments: [{ filename: 'tickets-code.pdf', content: pdf, contentType: 'application/pdf' }],
      },
      { log: deps.log, context: { orderId }, attempts: 3, backoffMs: 500 },
    );
    await notifySeller(result.row);
    return { code };
  }

  /** E-mails the seller of a paid order, in the seller's language, with a link to the payout tab (issue 13). */
  async function notifySeller(row: NonNullable<Awaited<ReturnType<typeof repo.order>>>) {
    const context = { orderId: row.order.id, sellerId: row.listing.sellerId };
    const seller = await deps.userContact(row.listing.sellerId).catch((err: unknown) => {
      deps.log.error({ ...context, err }, 'seller not found for the sale e-mail');
      return null;
    });
    if (!seller) return;
    const lang: MailLocale = seller.locale === 'es' ? 'es' : 'en';
    await sendMailOrLog(
      deps.mail,
      {
        to: seller.email,
        ...listingSoldMail(lang, {
          eventName: row.event.name,
          ticketName: row.type.name,
          quantity: row.order.quantity,
          amountCents: row.order.totalCents - row.order.feeCents,
          currencyCode: row.order.currencyCode,
          link: `${config.publicUrl}/${lang}/?PANEL_TAB=SETTINGS&SETTINGS_TAB=ACCOUNT_VERIFICATION`,
        }),
      },
      { log: deps.log, context, attempts: 3, backoffMs: 500 },
    );
  }

  return {
    payOrder,

    /**
     * GET /resell/tickets/available: the holder's listable tickets, grouped by type. `ticketName` is
     * "Event · Type" (the entry has no event field and one holder may own the same type name at two events).
     * `preferUserTicketId` (the ticket the user came from) becomes the `userTicketId` of its group.
     */
    async available(userId: number, preferUserTicketId?: number) {
      const rows = await repo.availableByType(db, userId, now(), config.resaleCountries, preferUserTicketId);
      return rows.map((r) => ({
        userTicketId: r.firstTicketId,
        ticketId: r.type.id,
        ticketName: displayName(r.event, r.type),
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

    /**
     * POST /resell: lists `amountCount` tickets of the type of `userTicketId` at `price` each.
     * Honours `Idempotency-Key`: a repeated key returns the first listing.
     * @throws AppError `api.resell.create.no_stripe` (403), `api.resell.create.already_listed` (409),
     *   `api.resell.create.not_resellable` (409), `api.resell.not_supported_country` (400), `invalid_prices` (400),
     *   `api.resell.create.quantity_exceeded` (400), `api.invalid_request_body` (400, currency mismatch).
     */
    async create(
      userId: number,
      input: { userTicketId: number; amountCount: number; price: number; currencyCode: string },
      idempotencyKey?: string,
    ) {
      if (idempotencyKey) {
        const existing = await repo.listingByIdempotencyKey(db, userId, idempotencyKey);
        if (existing) return { shareLinkUrl: shareUrl(existing.shareToken) };
      }
      const account = await repo.payoutAccount(db, userId);
      if (!account || account.status !== 'VERIFIED') throw new AppError('api.resell.create.no_stripe');
      const at = now();
      try {
        const listing = await db.transaction(async (tx) => {
          const row = await repo.ticketWithType(tx, input.userTicketId);
          if (!row || row.ticket.holderId !== userId) throw new AppError('api.resell.create.not_resellable');
          if (row.listed) throw new AppError('api.resell.create.already_listed');
          if (!ticketMayMove('resell', row, userId, at)) throw new AppError('api.resell.create.not_resellable');
          if (!config.resaleCountries.includes(row.event.country))
            throw new AppError('api.resell.not_supported_country');
          if (input.currencyCode.toUpperCase() !== row.type.currencyCode)
            throw new AppError('api.invalid_request_body');
          const priceCents = toCents(input.price);
          if (priceCents > row.type.maxResalePriceCents || priceCents <= 0) throw new AppError('invalid_prices');
          const ids = await repo.lockEligible(tx, userId, row.type.id, row.ticket.id, at, input.amountCount);
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
        return { shareLinkUrl: shareUrl(listing.shareToken) };
      } catch (err) {
        // Another request listed the same ticket (or used the same key) between our check and insert.
        if ((err as { code?: string }).code === '23505') {
          const again = idempotencyKey ? await repo.listingByIdempotencyKey(db, userId, idempotencyKey) : undefined;
          if (again) return { shareLinkUrl: shareUrl(again.shareToken) };
          throw new AppError('api.resell.create.already_listed');
        }
        throw err;
      }
    },

    /** GET /resell/ticket/sales and /resell/tickets/sold. */
    async listings(userId: number, which: 'SALE' | 'SOLD') {
      return (await repo.listingsOf(db, userId, which)).map(toListing);
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
        symbol: currencySymbol(l.currencyCode),
      };
    },

    /**
     * Starts a purchase from a share link: a PENDING order and the checkout URL. Honours an idempotency key.
     * @throws AppError `api.resell.listing_not_found` (404), `api.resell.listing_unavailable` (409, not enough left).
     */
    async startPurchase(
      token: string,
      input: { quantity: number; email: string; locale: string },
      idempotencyKey: string,
    ) {
      const existing = await repo.orderByIdempotencyKey(db, idempotencyKey);
      if (existing && existing.status !== 'PENDING')
        return { orderId: existing.id, url: `${config.publicUrl}/resale/done/${existing.id}` };
      const row = await repo.listingByToken(db, token);
      if (!row) throw new AppError('api.resell.listing_not_found');
      const l = row.listing;
      if (l.status !== 'LISTED' || l.quantity - l.soldQuantity < input.quantity)
        throw new AppError('api.resell.listing_unavailable');
      const unit = l.priceCents + l.feeCents;
      const locale = input.locale === 'es' ? 'es' : 'en';
      const orderId =
        existing?.id ??
        (await repo.insertOrder(db, {
          id: randomUUID(),
          listingId: l.id,
          quantity: input.quantity,
          buyerEmail: input.email,
          locale,
          totalCents: unit * input.quantity,
          feeCents: l.feeCents * input.quantity,
          currencyCode: l.currencyCode,
          status: 'PENDING',
          idempotencyKey,
          createdAt: now(),
        }));
      const checkout = await payouts.createCheckout({
        orderId,
        currencyCode: l.currencyCode,
        unitAmountCents: unit,
        quantity: input.quantity,
        productName: `${row.event.name} - ${row.type.name}`,
        buyerEmail: input.email,
        successUrl: `${config.publicUrl}/resale/done/${orderId}?lang=${locale}`,
        cancelUrl: `${config.publicUrl}/r/${token}?lang=${locale}`,
      });
      await repo.setCheckoutSession(db, orderId, checkout.sessionId);
      return { orderId, url: checkout.url };
    },

    /** The order with its listing, type and event (checkout and confirmation pages). */
    order: (orderId: string) =>
      /^[0-9a-f-]{36}$/i.test(orderId) ? repo.order(db, orderId) : Promise.resolve(undefined),

    /**
     * POST /resell/{ticketId}: the code PDF of a paid order, for whoever knows its code.
     * @throws AppError `api.resell.redeem.invalid_code` (404).
     */
    async codePdf(orderId: string, code: string): Promise<Buffer> {
      const row = /^[0-9a-f-]{36}$/i.test(orderId) ? await repo.order(db, orderId) : undefined;
      if (!row || row.order.status !== 'PAID' || row.order.codeHash !== hashCode(code))
        throw new AppError('api.resell.redeem.invalid_code');
      const lang = row.order.locale === 'es' ? 'es' : 'en';
      return renderCodePdf({
        lang,
        eventName: row.event.name,
        venue: row.event.venue,
        city: row.event.city,
        startsAt: row.event.startsAt,
        timeZone: row.event.timeZone,
        ticketName: row.type.name,
        quantity: row.order.quantity,
        code: code.trim().toUpperCase(),
        redeemUrl: `${config.publicUrl}/${lang}/?PANEL_TAB=REDEEM`,
      });
    },

    /**
     * POST /resell/redeem/{secret}: moves the tickets held under the code to the caller.
     * @throws AppError `api.resell.redeem.invalid_code` (404), `api.resell.redeem.already_redeemed` (409).
     */
    async redeem(userId: number, secret: string): Promise<{ name: string; logo: string | null }> {
      const at = now();
      return db.transaction(async (tx) => {
        const order = await repo.orderByCodeHash(tx, hashCode(secret));
        if (!order) throw new AppError('api.resell.redeem.invalid_code');
        if (order.redeemedAt) throw new AppError('api.resell.redeem.already_redeemed');
        const ids = await repo.orderTicketIds(tx, order.id);
        await repo.redeem(tx, { orderId: order.id, userId, ticketIds: ids, at });
        const row = (await repo.order(tx, order.id))!;
        return { name: displayName(row.event, row.type), logo: row.type.logo ?? row.event.logo };
      });
    },

    /** Payouts owed to a seller (minor units). */
    payoutsOf: (userId: number) => repo.payoutsOf(db, userId),

    /**
     * POST /resell/stripe-connect: creates the payout account if needed and returns an onboarding client secret.
     * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ.
     */
    async connect(userId: number, country = 'AU'): Promise<{ clientSecret: string }> {
      if (!config.resaleCountries.includes(country)) throw new AppError('api.resell.not_supported_country');
      let account = await repo.payoutAccount(db, userId);
      if (!account) {
        const { externalId } = await payouts.createAccount({ email: await deps.userEmail(userId), country });
        await repo.insertPayoutAccount(db, {
          userId,
          provider: payouts.kind,
          externalId,
          country,
          status: 'PENDING',
          createdAt: now(),
        });
        account = (await repo.payoutAccount(db, userId))!;
      }
      return { clientSecret: await payouts.createAccountSession(account.externalId) };
    },

    /** GET /resell/stripe: the onboarding client secret, '' when onboarding has not started. Also tells whether verified. */
    async accountState(userId: number): Promise<{ clientSecret: string; verified: boolean }> {
      const account = await repo.payoutAccount(db, userId);
      if (!account) return { clientSecret: '', verified: false };
      return {
        clientSecret: await payouts.createAccountSession(account.externalId),
        verified: account.status === 'VERIFIED',
      };
    },

    /**
     * The sandbox onboarding form (POST /resell/sandbox-onboarding): the route validates what Stripe would
     * collect (country, names, date of birth, bank account); the sandbox keeps only the country, since no
     * real payout is ever made, and marks the account verified.
     * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ.
     */
    async sandboxOnboard(userId: number, input: { country: string }): Promise<void> {
      if (!config.resaleCountries.includes(input.country)) throw new AppError('api.resell.not_supported_country');
      await this.connect(userId, input.country);
      await repo.setPayoutAccountStatus(
        db,
        { userId },
        { status: 'VERIFIED', country: input.country, verifiedAt: now() },
      );
    },

    /**
     * Stripe webhooks: signature-checked, deduplicated by event id. `account.updated` verifies accounts
     * (in AU/NZ only); `checkout.session.completed` pays the order.
     * @throws AppError `api.resell.webhook_invalid` (400) on a bad signature.
     */
    async webhook(rawBody: Buffer, signature: string): Promise<void> {
      let event: PayoutEvent;
      try {
        event = payouts.parseWebhook(rawBody, signature);
      } catch {
        throw new AppError('api.resell.webhook_invalid');
      }
      if (!(await repo.recordWebhookEvent(db, event.id, event.type, now()))) return;
      if (event.type === 'account.updated') {
        const ok = event.verified && (!event.country || config.resaleCountries.includes(event.country));
        await repo.setPayoutAccountStatus(
          db,
          { externalId: event.accountId },
          { status: ok ? 'VERIFIED' : 'PENDING', country: event.country, verifiedAt: ok ? now() : null },
        );
      } else if (event.type === 'checkout.session.completed' && event.orderId) {
        await payOrder(event.orderId).catch((err) => {
          if (!(err instanceof AppError)) throw err;
        });
      }
    },
  };
}
export type ResaleService = ReturnType<typeof createResaleService>;
