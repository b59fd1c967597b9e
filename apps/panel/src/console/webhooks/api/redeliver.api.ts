/**
 * POST /v1/org/webhooks/{id}/deliveries/{deliveryId}/redeliver: the same webhook-id and body, due now; answers the
 * new delivery's id and its webhook-id. Refreshes the endpoints (and with them their logs).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const redeliver = (id: number, deliveryId: number): Promise<{ id: number; messageId: string }> =>
  org.POST('/v1/org/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } });

/** The redeliver mutation of endpoint `id` (`mutate(deliveryId)`). */
export function useRedeliver(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => redeliver(id, deliveryId),
    onSuccess: () => client.invalidateQueries({ queryKey: consoleKeys.webhooks.all }),
  });
}
