/**
 * Unlocking a digital benefit (spec sections 2 Ticket page, 4 Benefit, 7):
 * POST /v1/mobile/unlock/{userTicketId} `{ userTicketBenefitId }` -> `{ redeemCode }`. Only the
 * holder, only `isUnlockable` benefits of type `benefits.digital`; unlocking again returns the same
 * code. Refreshes SINGLE_TICKET of that ticket (spec section 4).
 * Errors: `api.unlock.invalid_benefit_id` (404), `api.unlock.validation_error` (400), `api.unlock.internal_error`.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UnlockInput {
  userTicketId: number;
  userTicketBenefitId: number;
}

/** @throws ApiError whose message is a server message key. */
export const unlockBenefit = (input: UnlockInput): Promise<{ redeemCode: string }> =>
  client.POST('/v1/mobile/unlock/{id}', {
    params: { path: { id: input.userTicketId } },
    body: { userTicketBenefitId: input.userTicketBenefitId },
  });

/** `ticketKey` is the SINGLE_TICKET id the ticket page was loaded with (the USER_TICKET_ID). */
export function useUnlockBenefit(ticketKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: unlockBenefit,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.singleTicket.detail(ticketKey) }),
  });
}
