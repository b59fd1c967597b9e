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
import { codePdfFileName, listingSoldMail, resaleCodeMail, type MailLocale } from '../../providers/mail/templates.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo, type OrderRow } from './resale.repository.js';
import { renderCodePdf } from './resale.pdf.js';
import { displayName, hashCode, newCode } from './resale.code.js';
import { enqueueTicketEvents } from '../organisations/webhook-events.js';
import { pickLang } from '../../lib/lang.js';
import { isUuid } from '@tp/contract/fields';

type OrderDetail = NonNullable<Awaited<ReturnType<typeof repo.order>>>;

/** What a buyer asked for; an idempotency key is bound to it (amounts in minor units). */
interface PurchaseRequest {
  listingId: number;
  quantity: number;
  totalCents: number;
  currencyCode: string;
  buyerEmail: string;
}
const samePurchase = (order: OrderRow, r: PurchaseRequest): boolean =>
  order.listingId === r.listingId &&
  order.quantity === r.quantity &&
  order.totalCents === r.totalCents &&
  order.currencyCode === r.currencyCode &&
  order.buyerEmail.toLowerCase() === r.buyerEmail.toLowerCase();

/** A payment as the provider reports it (minor units, ISO 4217 upper case). */
export interface ProviderPayment {
  sessionId: string;
  amountTotalCents: number | null;
  currencyCode: string | null;
  /** The money was collected. */
  paid: boolean;
}

/** Why a reported payment does not pay this order (spec rule: money moves only after amount, currency and order match), or null. */
export function paymentMismatch(order: OrderRow, p: ProviderPayment): string | null {
  if (!p.paid) return 'not_paid';
  if (!order.checkoutSessionId || order.checkoutSessionId !== p.sessionId) return 'session';
  if (p.amountTotalCents !== order.totalCents) return 'amount';
  if (p.currencyCode !== order.currencyCode) return 'currency';
  return null;
}

/** The outcome of settling an order. */
export type Settlement =
  { status: 'paid'; code: string } | { status: 'already' } | { status: 'mismatch'; reason: string };

export interface OrderDeps {
  database: Database;
  config: Config;
  mail: MailProvider;
  /** Where a failed code mail is logged. */
  log: MailFailureLog;
  payouts: PayoutProvider;
  now: () => Date;
  /** The e-mail and language of a user (the seller's sale notice). */
  userContact: (userId: number) => Promise<{ email: string; locale: string }>;
}

export function createOrderService(deps: OrderDeps) {
  const { config, payouts, now } = deps;
  const db = deps.database.db;

  /**
   * Pays an order: the one transaction that moves tickets from the seller to a code. With `payment`
   * (a provider's report), the order is paid only when that payment is of the order's own checkout
   * session, for its amount and currency; otherwise it stays PENDING and the mismatch is returned.
   * Returns the code once (`paid`), `already` when the order was not PENDING.
   * @throws AppError `api.resell.order_not_found` (404), `api.resell.listing_unavailable` (409: the
   *   tickets went to someone else; the order is marked FAILED).
   */
  async function settle(orderId: string, payment?: ProviderPayment): Promise<Settlement> {
    const at = now();
    const code = newCode();
    const result = await db.transaction(async (tx) => {
      const row = await repo.order(tx, orderId, true);
      if (!row) throw new AppError('api.resell.order_not_found');
      if (row.order.status !== 'PENDING') return { status: 'already' } as const;
      const mismatch = payment && paymentMismatch(row.order, payment);
      if (mismatch) return { status: 'mismatch', reason: mismatch } as const;
      const listing = await repo.lockListing(tx, row.listing.id);
      const ids = listing.status === 'LISTED' ? await repo.lockListedTickets(tx, listing.id, row.order.quantity) : [];
      if (ids.length < row.order.quantity) {
        await repo.markOrderFailed(tx, orderId);
        return { status: 'unavailable' } as const;
      }
      await repo.sell(tx, {
        listing,
        orderId,
        ticketIds: ids,
        codeHash: hashCode(code),
        payoutCents: row.order.totalCents - row.order.feeCents,
        at,
      });
      await enqueueTicketEvents(tx, 'ticket.resold', ids, at, { orderId });
      return { status: 'paid', row } as const;
    });
    if (result.status === 'unavailable') throw new AppError('api.resell.listing_unavailable');
    if (result.status !== 'paid') return result;
    await mailCode(result.row, code);
    await notifySeller(result.row);
    return { status: 'paid', code };
  }

  /** E-mails the seller of a paid order, in the seller's language, with a link to the payout tab (issue 13). */
  async function notifySeller(row: OrderDetail): Promise<void> {
    const context = { orderId: row.order.id, sellerId: row.listing.sellerId };
    const seller = await deps.userContact(row.listing.sellerId).catch((err: unknown) => {
      deps.log.error({ ...context, err }, 'seller not found for the sale e-mail');
      return null;
    });
    if (!seller) return;
    const lang: MailLocale = pickLang(seller.locale);
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

  /** Mails the buyer the code and its PDF. */
  async function mailCode(row: OrderDetail, code: string): Promise<void> {
    const { order, event, type } = row;
    const lang: MailLocale = pickLang(order.locale);
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
        attachments: [{ filename: codePdfFileName(lang), content: pdf, contentType: 'application/pdf' }],
      },
      { log: deps.log, context: { orderId: order.id }, attempts: 3, backoffMs: 500 },
    );
  }

  return {
    /**
     * The sandbox checkout's "Pay" (the sandbox page is the payment): pays a PENDING order.
     * Returns the code once, null when the order was already settled.
     * @throws AppError `api.resell.order_not_found` (404), `api.resell.listing_unavailable` (409).
     */
    async payOrder(orderId: string): Promise<{ code: string } | null> {
      const r = await settle(orderId);
      return r.status === 'paid' ? { code: r.code } : null;
    },

    /**
     * A payment the provider reports (signed webhook): pays the order only when the session, amount and
     * currency are the order's (see `paymentMismatch`). A mismatch leaves the order PENDING.
     * @throws AppError `api.resell.order_not_found` (404), `api.resell.listing_unavailable` (409).
     */
    confirmProviderPayment: (orderId: string, payment: ProviderPayment) => settle(orderId, payment),

    /**
     * Starts a purchase from a share link: a PENDING order and the checkout URL.
     * The idempotency key (one per listing page shown) is bound to the request it was first used with:
     * listing, quantity, total, currency and buyer e-mail. The same request again answers the same
     * order (and checkout session); the key with any other parameters answers 422, as Stripe's API does.
     * @throws AppError `api.resell.listing_not_found` (404), `api.resell.listing_unavailable` (409, not enough left),
     *   `api.idempotency_key_reused` (422).
     */
    async startPurchase(
      token: string,
      input: { quantity: number; email: string; locale: string },
      idempotencyKey: string,
    ) {
      const row = await repo.listingByToken(db, token);
      if (!row) throw new AppError('api.resell.listing_not_found');
      const l = row.listing;
      const unit = l.priceCents + l.feeCents;
      const request: PurchaseRequest = {
        listingId: l.id,
        quantity: input.quantity,
        totalCents: unit * input.quantity,
        currencyCode: l.currencyCode,
        buyerEmail: input.email,
      };
      let order = await repo.orderByIdempotencyKey(db, idempotencyKey);
      if (order && !samePurchase(order, request)) throw new AppError('api.idempotency_key_reused');
      if (order && order.status !== 'PENDING')
        return { orderId: order.id, url: `${config.publicUrl}/resale/done/${order.id}` };
      if (l.status !== 'LISTED' || l.quantity - l.soldQuantity < input.quantity)
        throw new AppError('api.resell.listing_unavailable');
      if (!order) {
        order = await repo.insertOrder(db, {
          ...request,
          id: randomUUID(),
          locale: pickLang(input.locale),
          feeCents: l.feeCents * input.quantity,
          status: 'PENDING',
          idempotencyKey,
          createdAt: now(),
        });
        // A concurrent request with the same key but other parameters inserted first.
        if (!samePurchase(order, request)) throw new AppError('api.idempotency_key_reused');
      }
      const orderId = order.id;
      const checkout = await payouts.createCheckout({
        orderId,
        currencyCode: order.currencyCode,
        unitAmountCents: order.totalCents / order.quantity,
        quantity: order.quantity,
        productName: `${row.event.name} - ${row.type.name}`,
        buyerEmail: order.buyerEmail,
        successUrl: `${config.publicUrl}/resale/done/${orderId}?lang=${pickLang(input.locale)}`,
        cancelUrl: `${config.publicUrl}/r/${token}?lang=${pickLang(input.locale)}`,
      });
      await repo.setCheckoutSession(db, orderId, checkout.sessionId);
      return { orderId, url: checkout.url };
    },

    /** The order with its listing, type and event (checkout and confirmation pages). */
    order: (orderId: string) => (isUuid(orderId) ? repo.order(db, orderId) : Promise.resolve(undefined)),

    /**
     * POST /resell/{ticketId}: the code PDF of a paid order, for whoever knows its code.
     * @throws AppError `api.resell.redeem.invalid_code` (404).
     */
    async codePdf(orderId: string, code: string): Promise<{ pdf: Buffer; fileName: string }> {
      const row = isUuid(orderId) ? await repo.order(db, orderId) : undefined;
      if (!row || row.order.status !== 'PAID' || row.order.codeHash !== hashCode(code))
        throw new AppError('api.resell.redeem.invalid_code');
      const lang = pickLang(row.order.locale);
      const pdf = await renderCodePdf({
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
      return { pdf, fileName: codePdfFileName(lang) };
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
