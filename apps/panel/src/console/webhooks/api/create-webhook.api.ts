/**
 * POST /v1/org/webhooks: a new endpoint; the answer carries its signing secret, shown once. Refreshes the list.
 * @throws ApiError `api.org.webhook_url_not_allowed` and validation keys.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { webhooks } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type NewWebhook = { url: string; events: webhooks.WebhookEventType[] };
type Created = z.infer<typeof webhooks.createWebhookResponse>;

export const createWebhook = (v: NewWebhook): Promise<Created> => org.POST('/v1/org/webhooks', { body: v });

/** The create mutation; `onSuccess` gets the answer and runs before the list is refreshed. */
export function useCreateWebhook(options: {
  onMutate?: () => void;
  onError?: (err: unknown) => void;
  onSuccess?: (created: Created) => void;
}) {
  const client = useQueryClient();
  return useMutation({
    onMutate: options.onMutate,
    onError: options.onError,
    mutationFn: createWebhook,
    onSuccess: async (r) => {
      options.onSuccess?.(r);
      await client.invalidateQueries({ queryKey: consoleKeys.webhooks.all });
    },
  });
}
