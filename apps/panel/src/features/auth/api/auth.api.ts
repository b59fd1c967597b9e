/** Sign-in calls: request a code, verify it (personal data is saved through lib/profile). */
import { useMutation } from '@tanstack/react-query';
import { client, ApiError } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { langOf } from '@tp/contract/locale';

/** POST /auth/signInOrRegisterAndSignIn: the sign-in session id, and the seconds until another code may be asked for. */
export const requestCode = (
  email: string,
  locale: string,
): Promise<{ sessionId: string; resendAfterSeconds: number }> =>
  client.POST('/v1/auth/signInOrRegisterAndSignIn', { body: { email, locale: langOf(locale) } });

/** Remembers when "Resend code" works again (epoch ms in storage `codeResendAt`), so a reload keeps the countdown. */
export function rememberResendAfter(seconds: number): number {
  const at = Date.now() + Math.max(0, seconds) * 1000;
  storage.set('codeResendAt', String(at));
  return at;
}
/**
 * The code already sent, from a refused code request (429 `api.auth.resend_too_soon` names the session of a
 * code still open and the seconds until another may be asked for, issue 23); null for any other failure.
 */
export function pendingCode(err: unknown): { sessionId: string; resendAfterSeconds: number } | null {
  if (!(err instanceof ApiError) || err.message !== 'api.auth.resend_too_soon') return null;
  const { sessionId, resendAfterSeconds } = err.body;
  if (typeof sessionId !== 'string') return null;
  return { sessionId, resendAfterSeconds: typeof resendAfterSeconds === 'number' ? resendAfterSeconds : 0 };
}

export const verifyCode = (input: { otp: string; session: string; email: string }) =>
  client.POST('/v1/auth/verifyLoginRequest', { body: input });

/** The code request as one call (the mutation's function, and the action its toasts report). */
export const sendCode = (v: { email: string; locale: string }) => requestCode(v.email, v.locale);

export const useRequestCode = () => useMutation({ mutationFn: sendCode });
export const useVerifyCode = () => useMutation({ mutationFn: verifyCode });
