/**
 * POST /v1/org/events/{externalId}/cancel (issue 46, decision 045): with `dryRun`, what a cancel would touch (tickets,
 * holders, listings, orders waiting for payment, exchange entries, wallet passes); without, cancels the event. A
 * cancel refreshes the event lists and the event (it shows cancelled and can no longer be edited).
 * @throws ApiError `api.org.event_not_found` (404), `api.invalid_request_body` (a reason over 1000 characters).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type CancelAnswer = organisations.EventCancelResponse;

/** The cancel (or its dry run) of `externalId`; an empty or blank reason is sent as none. */
export function cancelEvent(externalId: string, reason: string, dryRun: boolean): Promise<CancelAnswer> {
  const words = reason.trim();
  return org.POST('/v1/org/events/{externalId}/cancel', {
    params: { path: { externalId } },
    body: { dryRun, ...(words ? { reason: words } : {}) },
  });
}

/** The mutation of a cancel of `externalId` (`dryRun` true: the check, which refreshes nothing). */
export function useCancelEvent(externalId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ reason, dryRun }: { reason: string; dryRun: boolean }) => cancelEvent(externalId, reason, dryRun),
    onSuccess: async (answer) => {
      if (!answer.dryRun) await client.invalidateQueries({ queryKey: consoleKeys.events.all });
    },
  });
}
