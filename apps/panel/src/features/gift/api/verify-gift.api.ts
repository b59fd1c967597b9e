/**
 * Gift eligibility (spec sections 3 Gift ticket choice, 7): POST /v1/mobile/gift/verify
 * `{ userTicketId }` -> `{ extras: { canBeGifted } }`. The server says false when the ticket type is
 * not giftable, its event access is used, the event is over or it is listed for resale.
 * Errors: `gift_tickets.not_authorized_to_verify` (403, not the holder), `gift_tickets.internal_error_verify`.
 */
import { useMutation } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';

export interface GiftVerifyResponse {
  extras: { canBeGifted: boolean };
}

/** @throws ApiError whose message is a server message key. */
export const verifyGift = (userTicketId: number): Promise<GiftVerifyResponse> =>
  client.POST('/v1/mobile/gift/verify', { body: { userTicketId } });

/** Not cached: eligibility is asked again each time a ticket is chosen. */
export const useVerifyGift = () => useMutation({ mutationFn: verifyGift });
