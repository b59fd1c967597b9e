/**
 * The gift receiver's e-mail form (spec section 5): required ('validation.email_required') and valid
 * ('validation.email_invalid'). The spec notes the invalid message shows as a raw key on this screen;
 * issue 13 asks that no screen ever show a raw key, so both go through `t` like every other message.
 * The holder's own e-mail is refused at this step (issue 40, point 6) with the server's key for it,
 * `gift_tickets.cannot_gift_to_self`, rather than only at the last button.
 */
import * as z from 'zod';
import { ApiError } from '../../lib/api-client';

const GIFT_EMAIL_INVALID = 'validation.email_invalid';

/** The message key of a gift to oneself (the server's, packages/contract/src/messages.ts). */
export const GIFT_TO_SELF = 'gift_tickets.cannot_gift_to_self';

/** Whether two e-mail addresses are the same account's (the server stores them lower-cased). */
export const sameEmail = (a: string, b: string | undefined): boolean =>
  b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The receiver e-mail form's schema; `ownEmail`, the signed-in holder's address (undefined while unknown), is
 * refused with {@link GIFT_TO_SELF}.
 */
export const giftEmailSchema = (ownEmail?: string) =>
  z.object({
    email: z
      .string()
      .trim()
      .min(1, 'validation.email_required')
      .max(254, GIFT_EMAIL_INVALID)
      .pipe(z.email(GIFT_EMAIL_INVALID))
      .refine((email) => !sameEmail(email, ownEmail), GIFT_TO_SELF),
  });
export type GiftEmailForm = z.infer<ReturnType<typeof giftEmailSchema>>;

/** The confirmed receiver: what is sent as `username` in the gift request. */
export type Receiver = { kind: 'EMAIL'; value: string } | { kind: 'USERNAME'; value: string; picture: string | null };

/** The message key of a failed gift call: the server's key for a client error, else `fallback`. */
export function giftErrorKey(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message === 'offline') return 'offline';
  return err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : fallback;
}
