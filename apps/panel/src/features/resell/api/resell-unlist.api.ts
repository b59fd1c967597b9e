/** POST /v1/resell/unlist (spec sections 2 Resell, 4: unlisting refreshes LISTED_TICKETS and TICKETS_AVAILABLE_FOR_LISTING). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Removes the live listing holding `userTicketId`; unsold tickets stay with the seller. @throws ApiError `api.resell.listing_not_found`. */
export const unlist = (userTicketId: number): Promise<void> =>
  client.POST('/v1/resell/unlist', { body: { userTicketId } });

export function useUnlist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: unlist,
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.listedTickets.all }),
        qc.invalidateQueries({ queryKey: queryKeys.ticketsAvailableForListing.all }),
      ]);
    },
  });
}
