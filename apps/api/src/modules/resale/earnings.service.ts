/**
 * A seller's earnings for the payout tab (issue 13, item 6; beyond the spec): one entry per sale (per ticket for one
 * sold through an exchange queue) with
 * what the seller is owed (the listing price times the quantity; the buyer's service fee is not theirs),
 * in minor units with its currency, and the payout status.
 */
import type { Earning, exchange } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { currencySymbol } from '../../lib/money.js';
import { earningsRepository as repo } from './earnings.repository.js';

/** Most payouts `GET /org/payouts` answers (the newest). */
const ORG_PAYOUTS_MAX = 500;

export function createEarningsService(deps: { database: Database }) {
  const db = deps.database.db;
  return {
    /** GET /resell/earnings: the caller's sales, newest first. */
    async of(sellerId: number): Promise<Earning[]> {
      const rows = await repo.ofSeller(db, sellerId);
      return rows.map(({ payout, order, offer, type, event }) => ({
        // A ticket sold through an exchange queue: one payout per ticket, under the offer's order id.
        orderId: order?.id ?? offer?.orderId ?? '',
        name: `${event.name} · ${type.name}`,
        ticketLogo: type.logo,
        quantity: order?.quantity ?? 1,
        amountCents: payout.amountCents,
        currencyCode: payout.currencyCode,
        currencySymbol: currencySymbol(payout.currencyCode),
        soldDate: (order?.paidAt ?? offer?.paidAt ?? payout.createdAt).toISOString(),
        payoutStatus: payout.status === 'PAID' ? ('PAID' as const) : ('PENDING' as const),
      }));
    },

    /**
     * GET /org/payouts: what the organisation is owed for the tickets it released into its exchange queues (issue 45),
     * one payout per ticket sold, newest first, at most {@link ORG_PAYOUTS_MAX}.
     */
    async ofOrganisation(organisationId: number): Promise<exchange.OrgPayout[]> {
      const rows = await repo.ofOrganisation(db, organisationId, ORG_PAYOUTS_MAX);
      return rows.map(({ createdAt, status, ...row }) => ({
        ...row,
        soldAt: createdAt.toISOString(),
        // HELD while the fan's payment is disputed, CANCELLED once it went back (issue 46).
        status: status === 'PAID' || status === 'HELD' || status === 'CANCELLED' ? status : ('PENDING' as const),
      }));
    },
  };
}
export type EarningsService = ReturnType<typeof createEarningsService>;
