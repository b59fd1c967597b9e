/**
 * POST /v1/auth/profile (spec section 7): saves changed profile fields (givenName, familyName, phoneNumber)
 * and answers the updated User. Refreshes USER (spec section 4) so the header avatar and hub header update.
 * Errors: ApiError with api.profile.email_or_phone_in_use (409), api.invalid_request_body (400), ...
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type ProfilePatch = Partial<Pick<User, 'givenName' | 'familyName'>> & { phoneNumber?: string };

export const updateProfile = (patch: ProfilePatch) => api<User>('/auth/profile', { body: patch });

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}
