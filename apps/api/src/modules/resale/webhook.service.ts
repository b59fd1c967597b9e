/**
 * Payout provider webhooks (Stripe): signature-checked, deduplicated by event id, then handed to the
 * use case they concern: `account.updated` to the payout account, `checkout.session.completed` to the order.
 */
import type { Database } from '../../db/client.js';
import type { PayoutProvider, PayoutEvent } from '../../providers/payouts/payout.provider.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo } from './resale.repository.js';
import type { OrderService } from './order.service.js';
import type { PayoutAccountService } from './payout-account.service.js';

export interface WebhookDeps {
  database: Database;
  payouts: PayoutProvider;
  now: () => Date;
  orders: Pick<OrderService, 'payOrder'>;
  payoutAccounts: Pick<PayoutAccountService, 'accountUpdated'>;
}

export function createWebhookService(deps: WebhookDeps) {
  const { payouts, now, orders, payoutAccounts } = deps;
  const db = deps.database.db;
  return {
    /**
     * POST /resell/stripe/webhook with its raw body and `Stripe-Signature` header. A replayed event id does nothing.
     * @throws AppError `api.resell.webhook_invalid` (400) on a bad signature.
     */
    async handle(rawBody: Buffer, signature: string): Promise<void> {
      let event: PayoutEvent;
      try {
        event = payouts.parseWebhook(rawBody, signature);
      } catch {
        throw new AppError('api.resell.webhook_invalid');
      }
      if (!(await repo.recordWebhookEvent(db, event.id, event.type, now()))) return;
      if (event.type === 'account.updated') {
        await payoutAccounts.accountUpdated(event);
      } else if (event.type === 'checkout.session.completed' && event.orderId) {
        await orders.payOrder(event.orderId).catch((err) => {
          if (!(err instanceof AppError)) throw err;
        });
      }
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
