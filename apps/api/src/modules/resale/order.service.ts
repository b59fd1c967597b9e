/**
 * Resale orders (spec sections 4 Resell flow and Redeem, 7): a buyer starts a purchase from a share
 * link (order-purchase.ts), pays (order-settlement.ts), and receives a single-use secret code; redeeming it
 * moves the tickets to the redeemer (order-redeem.ts).
 */
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { isUuid } from '@tp/contract/fields';
import { resaleRepository as repo } from './resale.repository.js';
import { createPurchase } from './order-purchase.js';
import { createSettlement } from './order-settlement.js';
import { createRedeem } from './order-redeem.js';

/** The settings the order service and its parts (purchase, settlement, redeem) read: the public URL (checkout return and mail links). */
export type OrderConfig = Pick<Config, 'publicUrl' | 'productName'>;

export interface OrderDeps {
  database: Database;
  config: OrderConfig;
  payouts: PayoutProvider;
  now: () => Date;
}

/** The order service: purchase, settlement and the code, plus the order and payout reads. */
export function createOrderService(deps: OrderDeps) {
  const db = deps.database.db;
  return {
    ...createSettlement(deps),
    ...createPurchase(deps),

    /** The order with its listing, type and event (checkout and confirmation pages). */
    order: (orderId: string) => (isUuid(orderId) ? repo.order(db, orderId) : Promise.resolve(undefined)),

    ...createRedeem(deps),

    /** Payouts owed to a seller (minor units). */
    payoutsOf: (userId: number) => repo.payoutsOf(db, userId),
  };
}
export type OrderService = ReturnType<typeof createOrderService>;
