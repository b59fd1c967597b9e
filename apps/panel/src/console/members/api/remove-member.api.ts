/**
 * DELETE /v1/org/members/{id}: removes a member (the last owner stays: `409 api.org.last_owner`). Refreshes the
 * member list.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const removeMember = (id: number): Promise<void> =>
  org.DELETE('/v1/org/members/{id}', { params: { path: { id } } });

/** The remove mutation; `onSuccess` runs before the list is refreshed. */
export function useRemoveMember(options: { onSuccess?: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async () => {
      options.onSuccess?.();
      await client.invalidateQueries({ queryKey: consoleKeys.members });
    },
  });
}
