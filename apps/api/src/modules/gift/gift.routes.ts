/** Routes: POST /mobile/gift/verify, POST /mobile/giftTicket, GET /mobile/users/?username= */
import * as z from 'zod';
import { gift } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { GiftService } from './gift.service.js';
import { perUserPerMinute } from '../../lib/rate-limit.js';
import { requestLang } from '../../lib/lang.js';
import { errors } from '../../lib/openapi.js';

export function giftRoutes(
  app: App,
  deps: {
    gift: GiftService;
    requireAuth: PreHandler;
    /** Username searches per account a minute (config `userSearchesPerMinute`). */
    searchPerMinute: number;
    /** Gifts per account a minute (config `giftsPerMinute`). */
    giftsPerMinute: number;
  },
) {
  const pre = { preHandler: deps.requireAuth };
  app.post(
    '/mobile/gift/verify',
    {
      ...pre,
      schema: {
        operationId: 'verifyGift',
        summary: 'Whether a ticket may be gifted',
        body: gift.giftVerifyRequest,
        response: { 200: gift.giftVerifyResponse, ...errors(403, 409) },
      },
    },
    async (req) => deps.gift.verify(req.auth, req.body.userTicketId),
  );
  app.post(
    '/mobile/giftTicket',
    {
      ...pre,
      // Per account (after requireAuth): each gift moves a ticket and sends two e-mails.
      config: { ...perUserPerMinute('gifts', deps.giftsPerMinute), stepUp: 'gift' },
      schema: {
        operationId: 'giftTicket',
        summary: 'Give a ticket to another account by nickname or e-mail',
        body: gift.giftTicketRequest,
        response: { 200: z.object({ userTicketId: z.number() }), ...errors(403, 409) },
      },
    },
    async (req) => deps.gift.gift(req.auth, req.body.userTicketId, req.body.username, requestLang(req)),
  );
  app.get(
    '/mobile/users/',
    {
      ...pre,
      // Per account (after requireAuth): a reshaped Authorization header or a fresh token is the same bucket.
      config: perUserPerMinute('username_search', deps.searchPerMinute),
      schema: {
        operationId: 'searchUsers',
        summary: 'Find the account to gift to by nickname',
        querystring: gift.userSearchQuery,
        response: { 200: z.array(gift.userSearchResult) },
      },
    },
    async (req) => deps.gift.search(req.auth.userId, req.query.username),
  );
}
