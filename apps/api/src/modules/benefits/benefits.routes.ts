/** Route: POST /mobile/unlock/{id} { userTicketBenefitId } -> { redeemCode }. */
import * as z from 'zod';
import { gift } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { BenefitsService } from './benefits.service.js';
import { errors } from '../../lib/openapi.js';

export function benefitsRoutes(app: App, deps: { benefits: BenefitsService; requireAuth: PreHandler }) {
  app.post(
    '/mobile/unlock/:id',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'unlockBenefit',
        summary: "Claim a benefit of a ticket (id = the holder's ticket): its redeem code",
        params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        body: gift.unlockRequest,
        response: { 200: gift.unlockResponse, ...errors(409) },
      },
    },
    async (req) => deps.benefits.unlock(req.auth, req.params.id, req.body.userTicketBenefitId),
  );
}
