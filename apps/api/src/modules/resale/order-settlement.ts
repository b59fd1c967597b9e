/**
 * Settling a resale order (spec sections 4 Resell flow, 7): on payment, in one transaction, the tickets leave
 * the seller and are held under the code (80 random bits, stored as SHA-256); the seller is owed the price (a
 * PENDING payout, minor units); the buyer's code mail and the seller's sale notice are mail jobs of that same
 * transaction (decision 030).
 */
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import type { DbOrTx } from '../../db/client.js';
import { panelLink } from '../../providers/mail/brand.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { codePdfFileName } from '../../providers/mail/templates.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { resaleRepository as repo, type OrderRow } from './resale.repository.js';
import { hashCode, newCode } from './resale.code.js';
import { orderCodePdf } from './order-code-pdf.js';
import type { OrderDetail } from './order-detail.js';
import type { OrderDeps } from './order.service.js';

/** A payment as the provider reports it (minor units, ISO 4217 upper case). */
export interface ProviderPayment {
  sessionId: string;
  amountTotalCents: number | null;
  currencyCode: string | null;
  /** The money was collected. */
  paid: boolean;
}

/** What of a reported payment is not its order's. */
type MismatchReason = 'not_paid' | 'session' | 'amount' | 'currency';

/** Why a reported payment does not pay this order (spec rule: money moves only after amount, currency and order match), or null. */
function paymentMismatch(order: OrderRow, p: ProviderPayment): MismatchReason | null {
  if (!p.paid) return 'not_paid';
  if (!order.checkoutSessionId || order.checkoutSessionId !== p.sessionId) return 'session';
  if (p.amountTotalCents !== order.totalCents) return 'amount';
  if (p.currencyCode !== order.currencyCode) return 'currency';
  return null;
}

/** The outcome of settling an order. */
type Settlement =
  { status: 'paid'; code: string } | { status: 'already' } | { status: 'mismatch'; reason: MismatchReason };

/** The settlement part of the order service. */
export function createSettlement(deps: OrderDeps) {
  const { config, now } = deps;
  const db = deps.database.db;

  /**
   * Pays an order: the one transaction that moves tickets from the seller to a code. With `payment`
   * (a provider's report), the order is paid only when that payment is of the order's own checkout
   * session, for its amount and currency; otherwise it stays PENDING and the mismatch is returned.
   * Returns the code once (`paid`), `already` when the order was not PENDING (a `session` mismatch when `payment` is
   * another checkout session's).
   * @throws AppError `api.resell.order_not_found` (404), `api.resell.listing_unavailable` (409: the
   *   tickets went to someone else; the order is marked FAILED).
   */
  async function settle(orderId: string, payment?: ProviderPayment): Promise<Settlement> {
    const at = now();
    const code = newCode();
    const result = await db.transaction(async (tx) => {
      const row = await repo.order(tx, orderId, true);
      if (!row) throw new AppError('api.resell.order_not_found');
      // Paid, failed or reversed already: a retry of the payment that settled it, or another checkout's payment of
      // it (a second tab), which pays nothing (issue 46 audit: flagged for the operator, not passed over).
      if (row.order.status !== 'PENDING')
        return payment && payment.sessionId !== row.order.checkoutSessionId
          ? ({ status: 'mismatch', reason: 'session' } as const)
          : ({ status: 'already' } as const);
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
      await enqueueTicketMovedJobs(tx, ids);
      await mailCode(tx, at, row, code);
      await notifySeller(tx, at, row);
      return { status: 'paid' } as const;
    });
    if (result.status === 'unavailable') throw new AppError('api.resell.listing_unavailable');
    if (result.status !== 'paid') return result;
    return { status: 'paid', code };
  }

  /** Enqueues the seller's sale notice (issue 13) in `tx`: in the seller's language, linking to the payout tab. */
  async function notifySeller(tx: DbOrTx, at: Date, row: OrderDetail): Promise<void> {
    const seller = await repo.userContact(tx, row.listing.sellerId);
    if (!seller) return;
    const lang = pickLang(seller.locale);
    await enqueueMails(tx, at, [
      {
        template: 'listingSold',
        to: seller.email,
        locale: lang,
        org: row.organisation,
        params: {
          eventName: row.event.name,
          ticketName: row.type.name,
          quantity: row.order.quantity,
          amountCents: row.order.totalCents - row.order.feeCents,
          currencyCode: row.order.currencyCode,
          link: panelLink(config.publicUrl, lang, row.organisation.slug, {
            PANEL_TAB: 'SETTINGS',
            SETTINGS_TAB: 'ACCOUNT_VERIFICATION',
          }),
        },
      },
    ]);
  }

  /**
   * Enqueues the buyer's code mail in `tx`, with its PDF made now (the code is never stored in clear but in this
   * job until it is sent; decision 030) and the event's `.ics`.
   */
  async function mailCode(tx: DbOrTx, at: Date, row: OrderDetail, code: string): Promise<void> {
    const { order, event } = row;
    const { pdf, lang, redeemUrl } = await orderCodePdf(config.publicUrl, row, code);
    await enqueueMails(tx, at, [
      {
        template: 'resaleCode',
        to: order.buyerEmail,
        locale: lang,
        org: row.organisation,
        params: {
          ticket: { event, ticketName: row.type.name, calendarId: `order-${order.id}` },
          quantity: order.quantity,
          link: redeemUrl,
          at,
        },
        attachments: [
          { filename: codePdfFileName(lang), contentBase64: pdf.toString('base64'), contentType: 'application/pdf' },
        ],
      },
    ]);
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
  };
}
