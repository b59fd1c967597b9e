/**
 * POST /v1/auth/username {username} (spec section 7): sets the nickname; the numeric #suffix never changes
 * (docs/decisions/001). Answers the updated User and refreshes USER.
 * Errors: ApiError with api.profile.username_taken (409) when nickname#suffix is someone else's.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const updateUsername = (username: string) => api<User>('/auth/username', { body: { username } });

export function useUpdateUsername() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUsername,
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}
