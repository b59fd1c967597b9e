/** POST /v1/resell: lists tickets (spec sections 2 Resell, 4: listing refreshes LISTED_TICKETS and TICKETS_AVAILABLE_FOR_LISTING). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import type { CreateResaleRequest } from '../resell.types';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Lists `amountCount` tickets of the type of `userTicketId` at `price` (major units) each. The same
 * `idempotencyKey` never lists twice. Resolves with the public `shareLinkUrl`.
 * @throws ApiError `api.resell.create.no_stripe` (no verified payout account), `api.resell.create.already_listed`,
 *   `api.resell.create.not_resellable`, `api.resell.create.quantity_exceeded`, `api.resell.not_supported_country`, `invalid_prices`.
 */
export const createResale = (body: CreateResaleRequest, idempotencyKey: string): Promise<{ shareLinkUrl: string }> =>
  client.POST('/v1/resell', { body, headers: { 'idempotency-key': idempotencyKey } });

/** The create call as one function (the mutation's, and the action its toasts report). */
export const createListing = (v: { body: CreateResaleRequest; idempotencyKey: string }) =>
  createResale(v.body, v.idempotencyKey);

export function useCreateResale() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.listedTickets.all }),
        qc.invalidateQueries({ queryKey: queryKeys.ticketsAvailableForListing.all }),
      ]);
    },
  });
}
