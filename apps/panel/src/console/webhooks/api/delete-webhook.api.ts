/** DELETE /v1/org/webhooks/{id}: removes an endpoint. Refreshes the list. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const deleteWebhook = (id: number): Promise<void> =>
  org.DELETE('/v1/org/webhooks/{id}', { params: { path: { id } } });

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}
