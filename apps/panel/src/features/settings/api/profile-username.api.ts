/**
 * The nickname save, as the spec's table names it (section 7: "POST /auth/username | username, then profile
 * update with nickname"): POST /v1/auth/username {username} sets the nickname (the numeric #suffix never
 * changes, docs/decisions/001), then POST /v1/auth/profile with the user it answered, nickname included.
 * Answers the updated User and refreshes USER.
 * Errors: ApiError with api.profile.username_taken (409) when nickname#suffix is someone else's (then no
 * profile update is sent), or the profile update's errors.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { profilePayload } from '../../../lib/profile';
import { queryKeys } from '../../../lib/query-keys';

export async function updateUsername(username: string): Promise<User> {
  const user: User = await client.POST('/v1/auth/username', { body: { username } });
  return client.POST('/v1/auth/profile', { body: profilePayload(user, { nickname: user.nickname }) });
}

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
