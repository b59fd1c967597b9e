/** Routes: POST /mobile/gift/verify, POST /mobile/giftTicket, GET /mobile/users/?username= */
import * as z from 'zod';
import { gift } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { GiftService } from './gift.service.js';

export function giftRoutes(app: App, deps: { gift: GiftService; requireAuth: PreHandler; searchPerMinute: number }) {
  const pre = { preHandler: deps.requireAuth };
  app.post(
    '/mobile/gift/verify',
    { ...pre, schema: { tags: ['gift'], body: gift.giftVerifyRequest, response: { 200: gift.giftVerifyResponse } } },
    async (req) => deps.gift.verify(req.auth.userId, req.body.userTicketId),
  );
  app.post(
    '/mobile/giftTicket',
    {
      ...pre,
      schema: {
        tags: ['gift'],
        body: gift.giftTicketRequest,
        response: { 200: z.object({ userTicketId: z.number() }) },
      },
    },
    async (req) => deps.gift.gift(req.auth.userId, req.body.userTicketId, req.body.username),
  );
  app.get(
    '/mobile/users/',
    {
      ...pre,
      config: {
        // Per account (issue 13): counted after requireAuth, keyed on the verified user id, so new tokens
        // or other IPs of one account share the budget.
        rateLimit: {
          max: deps.searchPerMinute,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (req) => `user:${req.auth.userId}`,
        },
      },
      schema: { tags: ['gift'], querystring: gift.userSearchQuery, response: { 200: z.array(gift.userSearchResult) } },
    },
    async (req) => deps.gift.search(req.auth.userId, req.query.username),
  );
}
