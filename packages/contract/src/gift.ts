/** Gift payloads (spec section 3, Gift). */
import * as z from 'zod';
import { hasNoNul, rowId } from './fields.js';

const userTicketId = rowId;
/** POST /mobile/gift/verify body. */
export const giftVerifyRequest = z.strictObject({ userTicketId });
export const giftVerifyResponse = z.object({ extras: z.object({ canBeGifted: z.boolean() }) });
/** POST /mobile/giftTicket body: username holds an e-mail or a `nickname#1234` username. */
export const giftTicketRequest = z.strictObject({
  userTicketId,
  username: z.string().trim().min(1).max(254).refine(hasNoNul),
});
/** GET /mobile/users/?username= */
export const userSearchQuery = z.strictObject({ username: z.string().trim().min(1).max(40).refine(hasNoNul) });
export const userSearchResult = z.object({ username: z.string(), picture: z.string().nullable() });
/** POST /mobile/unlock/{id} body and response. */
export const unlockRequest = z.strictObject({ userTicketBenefitId: rowId });
export const unlockResponse = z.object({ redeemCode: z.string() });
