/**
 * Paying an exchange offer (issue 45, decision 042 "As built (checkout)"): the fan's checkout of their open offer, and
 * its settlement when the payment provider reports the payment (Stripe's webhook) or the sandbox page is paid. The
 * checkout is made outside the event's lock (a call to the provider); the settlement runs under it, so an offer is
 * paid at most once and never after it ended: the entry's state under the lock decides.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import { panelLink } from '../../providers/mail/brand.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { exchangeRepository as repo, type UnitRow } from './exchange.repository.js';
import { exchangeCheckoutRepository as checkoutRepo } from './exchange-checkout.repository.js';
import { underEventLock } from './exchange-rules.js';
import type { ExchangeNotices } from './exchange-notices.js';

/** A payment as the provider reports it (minor units, ISO 4217). */
export interface OfferPayment {
  sessionId: string;
  amountTotalCents: number | null;
  currencyCode: string | null;
  /** The money was collected. */
  paid: boolean;
}

/**
 * What a settlement did: `paid` (the tickets are the fan's), `already` (paid before), `ended` (the offer ended
 * before the payment came: nothing moves, the payment is owed back), `mismatch` (the payment is not this order's
 * session, amount or currency: nothing moves), `unknown` (no offer has this order id).
 */
export type OfferSettlement =
  | { status: 'paid'; userTicketIds: number[] }
  | { status: 'already' | 'ended' | 'unknown' }
  | { status: 'mismatch'; reason: 'not_paid' | 'session' | 'amount' | 'currency' };

/** The units' total (minor units) and, when every unit has the same price, that price. */
function priceOf(units: UnitRow[]) {
  const totalCents = units.reduce((sum, u) => sum + u.priceCents, 0);
  const same = units.every((u) => u.priceCents === units[0].priceCents);
  return { totalCents, unitAmountCents: same ? units[0].priceCents : totalCents, quantity: same ? units.length : 1 };
}

export function createExchangeCheckout(deps: {
  database: Database;
  now: () => Date;
  notices: ExchangeNotices;
  payouts: PayoutProvider;
  publicUrl: string;
}) {
  const { db } = deps.database;

  return {
    /**
     * POST /v1/exchange/entries/{id}/checkout: the page where the fan pays their open offer (made once per offer; a
     * second call answers the same page). The charge is the reserved units' face values.
     * @throws AppError `api.exchange.entry_not_found` (404: not my entry), `api.exchange.checkout.not_offered` (409:
     *   no open offer), `api.service_unavailable` (503: the payment provider is down)
     */
    async checkout(userId: number, entryId: number): Promise<{ checkoutUrl: string }> {
      const at = deps.now();
      const entry = await repo.entryOfUser(db, userId, entryId);
      if (!entry) throw new AppError('api.exchange.entry_not_found');
      const open = (e: typeof entry | undefined) => e?.status === 'OFFERED' && e.expiresAt !== null && at < e.expiresAt;
      if (!open(entry)) throw new AppError('api.exchange.checkout.not_offered');
      if (entry.checkoutUrl) return { checkoutUrl: entry.checkoutUrl };
      const opened = await underEventLock(db, entry.eventId, async (tx) => {
        const units = await checkoutRepo.reservedUnits(tx, entryId);
        if (units.length !== entry.quantity) return undefined;
        const price = priceOf(units);
        const row = await checkoutRepo.openOrder(tx, entryId, {
          orderId: randomUUID(),
          totalCents: price.totalCents,
          currencyCode: units[0].currencyCode,
        });
        return row && { row, price };
      });
      if (!opened || !open(opened.row) || !opened.row.orderId) throw new AppError('api.exchange.checkout.not_offered');
      const { row, price } = opened;
      if (row.checkoutUrl) return { checkoutUrl: row.checkoutUrl };
      const facts = await checkoutRepo.checkoutFacts(db, entryId);
      const lang = pickLang(facts.fan.locale);
      const back = panelLink(deps.publicUrl, lang, facts.organisation.slug, { PANEL_TAB: 'MY_TICKET' });
      const orderId = row.orderId as string;
      const checkout = await deps.payouts.createCheckout({
        kind: 'exchange',
        orderId,
        currencyCode: row.currencyCode ?? '',
        unitAmountCents: price.unitAmountCents,
        quantity: price.quantity,
        productName: `${facts.event.name} - ${facts.type.name}`,
        buyerEmail: facts.fan.email,
        successUrl: back,
        cancelUrl: back,
      });
      await checkoutRepo.setSession(db, orderId, checkout.sessionId, checkout.url);
      return { checkoutUrl: checkout.url };
    },

    /**
     * Settles the offer paid under `orderId`, in one transaction under the event's lock: the reserved units SOLD, the
     * entry PURCHASED, each returned ticket moved to the fan (its old pass void; wallet updates queued) with its
     * seller owed the face value (a PENDING payout), each released unit issued as a new ticket of the type; the fan's
     * and the sellers' e-mails and `exchange.sold` queued. With `payment` (the provider's report) it pays only the
     * order's own session, amount and currency. An offer that ended before the payment came is not settled, nor one
     * whose returned ticket is no longer its seller's or was revoked.
     */
    async settle(orderId: string, payment?: OfferPayment): Promise<OfferSettlement> {
      const at = deps.now();
      const found = await checkoutRepo.entryOfOrder(db, orderId);
      if (!found) return { status: 'unknown' };
      return underEventLock(db, found.eventId, async (tx): Promise<OfferSettlement> => {
        const entry = await repo.entry(tx, found.id);
        if (!entry || entry.status === 'PURCHASED') return { status: 'already' };
        if (entry.status !== 'OFFERED') return { status: 'ended' };
        if (payment) {
          if (!payment.paid) return { status: 'mismatch', reason: 'not_paid' };
          if (payment.sessionId !== entry.checkoutSessionId) return { status: 'mismatch', reason: 'session' };
          if (payment.amountTotalCents !== entry.totalCents) return { status: 'mismatch', reason: 'amount' };
          if (payment.currencyCode?.toUpperCase() !== entry.currencyCode?.toUpperCase())
            return { status: 'mismatch', reason: 'currency' };
        }
        const units = await checkoutRepo.reservedUnits(tx, entry.id);
        if (units.length !== entry.quantity) return { status: 'ended' };
        // A returned ticket that is no longer its seller's (or revoked) is not sold; the payment is owed back.
        if (!(await checkoutRepo.returnedStillSellers(tx, units))) return { status: 'ended' };
        const facts = await checkoutRepo.checkoutFacts(tx, entry.id);
        const moved = await checkoutRepo.sellReturned(tx, units, entry.userId, at);
        const issued = await checkoutRepo.issueReleased(
          tx,
          units,
          { organisationId: facts.event.organisationId, ticketTypeId: entry.ticketTypeId },
          entry.userId,
          at,
        );
        await checkoutRepo.purchase(
          tx,
          entry.id,
          units.map((u) => u.id),
          at,
        );
        await enqueueTicketMovedJobs(tx, moved);
        const sellers = new Map<number, { quantity: number; amountCents: number }>();
        for (const u of units) {
          if (u.sellerUserId === null || u.userTicketId === null) continue;
          const s = sellers.get(u.sellerUserId) ?? { quantity: 0, amountCents: 0 };
          sellers.set(u.sellerUserId, { quantity: s.quantity + 1, amountCents: s.amountCents + u.priceCents });
        }
        const contacts = await checkoutRepo.contacts(tx, [...sellers.keys()]);
        await deps.notices.sold(
          tx,
          entry.id,
          {
            amountCents: priceOf(units).totalCents,
            currencyCode: units[0].currencyCode,
            userTicketIds: [...moved, ...issued],
            released: issued.length,
            sellers: contacts.map((c) => ({ email: c.email, locale: c.locale, ...sellers.get(c.id)! })),
          },
          at,
        );
        return { status: 'paid', userTicketIds: [...moved, ...issued] };
      });
    },

    /** The fan's order (for the sandbox page): the entry, its facts and the order's total; undefined if none. */
    async order(orderId: string) {
      const entry = await checkoutRepo.entryOfOrder(db, orderId);
      if (!entry) return undefined;
      return { entry, ...(await checkoutRepo.checkoutFacts(db, entry.id)) };
    },
  };
}
export type ExchangeCheckout = ReturnType<typeof createExchangeCheckout>;
