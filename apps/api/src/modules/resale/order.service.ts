/**
 * Resale orders (spec sections 4 Resell flow and Redeem, 7): a buyer starts a purchase from a share
 * link, pays, and receives a single-use secret code; redeeming it moves the tickets to the redeemer.
 *
 * On payment, in one transaction, the tickets leave the seller and are held under the code (80 random
 * bits, stored as SHA-256); the seller is owed the price (a PENDING payout, minor units).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import { sendMailOrLog, type MailFailureLog, type MailProvider } from '../../providers/mail/mail.provider.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { resaleCodeMail, type MailLocale } from '../../providers/mail/templates.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo } from './resale.repository.js';
import { renderCodePdf } from './resale.pdf.js';
import { displayName, hashCode, newCode } from './resale.code.js';

export interface OrderDeps {
  database: Database;
  config: Config;
  mail: MailProvider;
  /** Where a failed code mail is logged. */
  log: MailFailureLog;
  payouts: PayoutProvider;
  now: () => Date;
}

export function createOrderService(deps: OrderDeps) {
  const { config, payouts, now } = deps;
  const db = deps.database.db;

  /** Pays an order: the one transaction that moves tickets from the seller to a code. Returns the code once. */
  async function payOrder(orderId: string): Promise<{ code: string } | null> {
    const at = now();
    const code = newCode();
    const result = await db.transaction(async (tx) => {
      const row = await repo.order(tx, orderId, true);
      if (!row) throw new AppError('api.resell.order_not_found');
      if (row.order.status !== 'PENDING') return null;
      const listing = await repo.lockListing(tx, row.listing.id);
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
    const lang: MailLocale = order.locale === 'es' ? 'es' : 'en';
    const redeemUrl = `${config.publicUrl}/${lang}/?PANEL_TAB=REDEEM`;
    const pdf = await renderCodePdf({
      lang,
      eventName: event.name,
      venue: event.venue,
      city: event.city,
      startsAt: event.startsAt.toISOString(),
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
    return { code };
  }

  return {
    payOrder,

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
      const orderId =
        existing?.id ??
        (await repo.insertOrder(db, {
          id: randomUUID(),
          listingId: l.id,
          quantity: input.quantity,
          buyerEmail: input.email,
          locale: input.locale === 'es' ? 'es' : 'en',
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
        successUrl: `${config.publicUrl}/resale/done/${orderId}`,
        cancelUrl: `${config.publicUrl}/r/${token}`,
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
        startsAt: row.event.startsAt.toISOString(),
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
        const row = await repo.order(tx, order.id);
        return { name: displayName(row.event, row.type), logo: row.type.logo ?? row.event.logo };
      });
    },

    /** Payouts owed to a seller (minor units). */
    payoutsOf: (userId: number) => repo.payoutsOf(db, userId),
  };
}
export type OrderService = ReturnType<typeof createOrderService>;
