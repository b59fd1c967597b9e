/** Sign-in calls: request a code, verify it (personal data is saved through lib/profile). */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const requestCode = (email: string, locale: string) =>
  api<{ sessionId: string }>('/auth/signInOrRegisterAndSignIn', { body: { email, locale } });
export const verifyCode = (input: { otp: string; session: string; email: string }) =>
  api<{ accessToken: string; refreshToken: string }>('/auth/verifyLoginRequest', { body: input });

export const useRequestCode = () =>
  useMutation({ mutationFn: (v: { email: string; locale: string }) => requestCode(v.email, v.locale) });
export const useVerifyCode = () => useMutation({ mutationFn: verifyCode });
