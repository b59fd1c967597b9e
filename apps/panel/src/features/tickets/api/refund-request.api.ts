/**
 * A holder's refund request for one ticket (issue 46, contract `refunds`), for the ticket page: asking (POST
 * /v1/tickets/{userTicketId}/refund-request `{ reason? }`, 201) and withdrawing a pending request (DELETE the same,
 * 200); each answers the ticket's refund side (`ticketRefundResponse`). Either refreshes the ticket listing (TICKETS
 * and SINGLE_TICKET: the page reads `MyTicket.refund` from it).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Asks for a refund of the ticket (`ask`, with the holder's optional reason), or withdraws the pending request.
 * @throws ApiError `api.refund.ticket_not_found`, `api.refund.not_found` (404), `api.refund.not_allowed`,
 *   `api.refund.not_eligible`, `api.refund.already_requested` (409).
 */
export function useRefundRequestChange(userTicketId: number, change: 'ask' | 'withdraw') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (reason: string | undefined) => {
      const params = { path: { userTicketId } };
      return change === 'ask'
        ? client.POST('/v1/tickets/{userTicketId}/refund-request', { params, body: reason ? { reason } : {} })
        : client.DELETE('/v1/tickets/{userTicketId}/refund-request', { params });
    },
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.tickets.all }),
        qc.invalidateQueries({ queryKey: queryKeys.singleTicket.all }),
      ]);
    },
  });
}
