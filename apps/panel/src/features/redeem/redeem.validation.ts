/** Redeem form rule of spec section 5: the code is required ('Code is required'). */
import * as z from 'zod';

export const redeemSchema = z.object({
  code: z.string().trim().min(1, 'redeem.code_required').max(64, 'api.resell.redeem.invalid_code'),
});
export type RedeemForm = z.infer<typeof redeemSchema>;
