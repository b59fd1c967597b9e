/**
 * `POST /v1/admin/sandbox/payment-events` (`Authorization: Bearer <ADMIN_KEY>`, registered only with the sandbox payout
 * provider; issue 46): the sandbox's stand-in for Stripe's `charge.refunded`, `charge.dispute.created` and
 * `charge.dispute.closed`, handled by the same reversals as Stripe's webhook. The sandbox's refund and dispute ids are
 * made from the order id, so each is handled once, as Stripe's are.
 */
import { resell } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { PaymentReversals } from './payment-reversal.js';

export function sandboxPaymentEventRoutes(app: App, deps: { reversals: PaymentReversals; requireAdmin: PreHandler }) {
  app.post(
    '/admin/sandbox/payment-events',
    {
      preHandler: deps.requireAdmin,
      schema: {
        operationId: 'sandboxPaymentEvent',
        summary: 'Sandbox only: refund or dispute a paid order, as Stripe would report it',
        security: securityOf('adminKey'),
        body: resell.sandboxPaymentEventRequest,
        response: { 200: resell.sandboxPaymentEventResponse, ...errors(400, 401) },
      },
    },
    async (req) => {
      const { orderId } = req.body;
      const payment = { paymentIntentId: null, orderId };
      if (req.body.type === 'charge.refunded')
        return { outcome: await deps.reversals.refunded({ ...payment, providerRef: `sbx_ch_${orderId}` }) };
      const providerRef = `sbx_dp_${orderId}`;
      if (req.body.type === 'charge.dispute.created')
        return { outcome: await deps.reversals.disputeOpened({ ...payment, providerRef }) };
      return { outcome: await deps.reversals.disputeClosed({ ...payment, providerRef }, req.body.status === 'won') };
    },
  );
}
