/** DELETE /v1/org/tickets/{externalId}: revokes a ticket. Refreshes the tickets (list and drawer). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const revokeTicket = (externalId: string): Promise<void> =>
  org.DELETE('/v1/org/tickets/{externalId}', { params: { path: { externalId } } });

/** The revoke mutation of ticket `externalId`; `onSuccess` runs before the tickets are refreshed. */
export function useRevokeTicket(externalId: string, options: { onSuccess: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => revokeTicket(externalId),
    onSuccess: async () => {
      options.onSuccess();
      await client.invalidateQueries({ queryKey: consoleKeys.tickets.all });
    },
  });
}
