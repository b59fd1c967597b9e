/**
 * Settling a resale order (spec sections 4 Resell flow, 7): on payment, in one transaction, the tickets leave
 * the seller and are held under the code (80 random bits, stored as SHA-256); the seller is owed the price (a
 * PENDING payout, minor units); then the buyer is mailed the code and the seller told of the sale.
 */
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import { sendMailOrLog } from '../../providers/mail/mail.provider.js';
import { mailBrand, panelLink } from '../../providers/mail/brand.js';
import { codePdfFileName, listingSoldMail, resaleCodeMail, type MailLocale } from '../../providers/mail/templates.js';
import { enqueueTicketEvents } from '../organisations/outbound-events.js';
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

/** Why a reported payment does not pay this order (spec rule: money moves only after amount, currency and order match), or null. */
function paymentMismatch(order: OrderRow, p: ProviderPayment): string | null {
  if (!p.paid) return 'not_paid';
  if (!order.checkoutSessionId || order.checkoutSessionId !== p.sessionId) return 'session';
  if (p.amountTotalCents !== order.totalCents) return 'amount';
  if (p.currencyCode !== order.currencyCode) return 'currency';
  return null;
}

/** The outcome of settling an order. */
type Settlement = { status: 'paid'; code: string } | { status: 'already' } | { status: 'mismatch'; reason: string };

/** The settlement part of the order service. */
export function createSettlement(deps: OrderDeps) {
  const { config, now } = deps;
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
      await enqueueTicketMovedJobs(tx, ids);
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
        ...(await listingSoldMail(lang, {
          eventName: row.event.name,
          ticketName: row.type.name,
          quantity: row.order.quantity,
          amountCents: row.order.totalCents - row.order.feeCents,
          currencyCode: row.order.currencyCode,
          link: panelLink(config.publicUrl, lang, row.organisation.slug, {
            PANEL_TAB: 'SETTINGS',
            SETTINGS_TAB: 'ACCOUNT_VERIFICATION',
          }),
          brand: mailBrand(row.organisation, config),
        })),
      },
      { log: deps.log, context, attempts: 3, backoffMs: 500 },
    );
  }

  /** Mails the buyer the code and its PDF. */
  async function mailCode(row: OrderDetail, code: string): Promise<void> {
    const { order, event } = row;
    const { pdf, lang, redeemUrl } = await orderCodePdf(config.publicUrl, row, code);
    const m = await resaleCodeMail(lang, {
      ticket: { event, ticketName: row.type.name, calendarId: `order-${order.id}` },
      quantity: order.quantity,
      link: redeemUrl,
      brand: mailBrand(row.organisation, config),
      at: deps.now(),
    });
    // The order is paid and the tickets are held under the code: the mail is tried 3 times (0.5 s then 1 s
    // apart), then its failure is logged with the order id.
    await sendMailOrLog(
      deps.mail,
      {
        to: order.buyerEmail,
        ...m,
        attachments: [
          { filename: codePdfFileName(lang), content: pdf, contentType: 'application/pdf' },
          ...m.attachments,
        ],
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
  };
}
