/**
 * Gifting (spec sections 3 Gift request, 4 Gift flow, 7): POST /v1/mobile/giftTicket
 * `{ userTicketId, username }` where `username` holds the receiver's e-mail or `nickname#1234`.
 * On success the ticket has left the caller: TICKETS and SINGLE_TICKET are invalidated; TICKETS also
 * when the server says the ticket can no longer be gifted by the caller.
 * Errors: `gift_tickets.not_allowed` (403), `gift_tickets.cannot_be_gifted` (409),
 * `gift_tickets.receiver_not_found` (404), `gift_tickets.cannot_gift_to_self` (400), `gift_tickets.internal_error`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface GiftTicketInput {
  userTicketId: number;
  username: string;
}

/** @throws ApiError whose message is a server message key. */
export const giftTicket = (input: GiftTicketInput): Promise<{ userTicketId: number }> =>
  client.POST('/v1/mobile/giftTicket', { body: input });

export function useGiftTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: giftTicket,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.tickets.all }),
        qc.invalidateQueries({ queryKey: queryKeys.singleTicket.all }),
      ]);
    },
    // The list was stale (ticket used, listed or moved meanwhile): refresh it.
    onError: (err) => {
      if (
        err instanceof ApiError &&
        (err.message === 'gift_tickets.cannot_be_gifted' || err.message === 'gift_tickets.not_allowed')
      ) {
        void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
      }
    },
  });
}
