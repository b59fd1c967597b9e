/** Sign-in calls: request a code, verify it, save personal data. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const requestCode = (email: string, locale: string) =>
  api<{ sessionId: string }>('/auth/signInOrRegisterAndSignIn', { body: { email, locale } });
export const verifyCode = (input: { otp: string; session: string; email: string }) =>
  api<{ accessToken: string; refreshToken: string }>('/auth/verifyLoginRequest', { body: input });

export const useRequestCode = () =>
  useMutation({ mutationFn: (v: { email: string; locale: string }) => requestCode(v.email, v.locale) });
export const useVerifyCode = () => useMutation({ mutationFn: verifyCode });

/** POST /auth/profile; refreshes USER. */
export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Pick<User, 'givenName' | 'familyName'>>) => api<User>('/auth/profile', { body: patch }),
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}
