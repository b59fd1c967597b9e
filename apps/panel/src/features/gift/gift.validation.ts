/**
 * The gift receiver's e-mail form (spec section 5): required ('validation.email_required', translated)
 * and valid. On the gift screen the invalid message is a key shown raw (spec section 5), so
 * GIFT_EMAIL_INVALID is displayed as is, not translated.
 */
import * as z from 'zod';
import { ApiError } from '../../lib/api-client';

/** Shown untranslated on the gift screen (spec section 5). */
export const GIFT_EMAIL_INVALID = 'validation.email_invalid';

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
  return err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : fallback;
}
