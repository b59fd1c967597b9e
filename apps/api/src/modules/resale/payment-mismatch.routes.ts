/**
 * `/admin/payments/mismatched...` (`Authorization: Bearer <ADMIN_KEY>`, issue 46): the payments flagged for the
 * operator, and the explicit refund or settlement of one.
 */
import { payments as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { PaymentMismatchService } from './payment-mismatch.service.js';

const adminSecurity = securityOf('adminKey');

/**
 * The two ways the admin resolves a flagged payment, each `POST /admin/payments/mismatched/{id}/<action>` answering
 * the payment as it then is: its operation, summary and log line.
 */
const RESOLUTIONS = {
  refund: {
    operationId: 'refundMismatchedPayment',
    summary: 'Refund a flagged payment in full through the payment provider; it is then resolved',
    logged: 'flagged payment refunded',
  },
  settle: {
    operationId: 'settleMismatchedPayment',
    summary: "Pay a flagged payment's order as if the payment matched, while it is payable; it is then resolved",
    logged: 'flagged payment settled',
  },
} as const;

/** Registers the platform admin's routes of flagged payments; `requireAdmin` is the organiser scope's admin pre-handler. */
export function paymentMismatchRoutes(
  app: App,
  deps: { mismatches: PaymentMismatchService; requireAdmin: PreHandler },
) {
  const admin = { preHandler: deps.requireAdmin };
  app.get(
    '/admin/payments/mismatched',
    {
      ...admin,
      schema: {
        operationId: 'listMismatchedPayments',
        summary: 'Payments that do not match their order, flagged for the operator, newest first',
        security: adminSecurity,
        querystring: contract.paymentMismatchQuery,
        response: { 200: contract.paymentMismatchPage, ...errors(401) },
      },
    },
    async (req) => deps.mismatches.list(req.query),
  );
  for (const action of ['refund', 'settle'] as const) {
    const { operationId, summary, logged } = RESOLUTIONS[action];
    app.post(
      `/admin/payments/mismatched/:id/${action}`,
      {
        ...admin,
        schema: {
          operationId,
          summary,
          security: adminSecurity,
          params: contract.paymentMismatchParams,
          response: { 200: contract.paymentMismatch, ...errors(401, 404, 409) },
        },
      },
      async (req) => {
        const resolved = await deps.mismatches[action](req.params.id, req.auditActor);
        req.log.info({ mismatchId: resolved.id, orderId: resolved.orderId }, logged);
        return resolved;
      },
    );
  }
}
