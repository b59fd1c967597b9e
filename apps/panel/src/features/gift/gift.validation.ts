/**
 * The gift receiver's e-mail form (spec section 5): required ('validation.email_required') and valid
 * ('validation.email_invalid'). The spec notes the invalid message shows as a raw key on this screen;
 * issue 13 asks that no screen ever show a raw key, so both go through `t` like every other message.
 */
import * as z from 'zod';
import { ApiError } from '../../lib/api-client';

const GIFT_EMAIL_INVALID = 'validation.email_invalid';

export const giftEmailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'validation.email_required')
    .max(254, GIFT_EMAIL_INVALID)
    .pipe(z.email(GIFT_EMAIL_INVALID)),
});
export type GiftEmailForm = z.infer<typeof giftEmailSchema>;

/** The confirmed receiver: what is sent as `username` in the gift request. */
export type Receiver = { kind: 'EMAIL'; value: string } | { kind: 'USERNAME'; value: string; picture: string | null };

/** The message key of a failed gift call: the server's key for a client error, else `fallback`. */
export function giftErrorKey(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message === 'offline') return 'offline';
  return err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : fallback;
}
