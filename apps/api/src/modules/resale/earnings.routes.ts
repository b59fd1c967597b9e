/** Route: GET /resell/earnings (the payout tab's list of sales; beyond the spec, docs/decisions/001). */
import { account } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { EarningsService } from './earnings.service.js';

export function earningsRoutes(app: App, deps: { earnings: EarningsService; requireAuth: PreHandler }) {
  app.get(
    '/resell/earnings',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'listEarnings',
        summary: "The holder's resale earnings (payout tab)",
        response: { 200: account.earningsResponse },
      },
    },
    async (req) => deps.earnings.of(req.auth.userId),
  );
}
