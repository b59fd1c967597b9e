/**
 * OTP (spec section 2): the e-mail, a 6-digit code with an info tooltip, Continue, resend and back.
 * Returns to LOGIN when the stored session or e-mail is missing. After success the stored session
 * and e-mail are removed, the tokens kept; then, if the profile has a given name, the screen the holder's link
 * asked for, else the QR pass with no hub over it (issue 40 points 1 and 2; decision 019 reads spec section 4's
 * "QR then hub"), or PERSONAL_DATA first for a holder with no name.
 * A refused code shows once, next to the field (the spec's flash, section 8: announced by its role=alert, cleared
 * on the next edit; issue 40 point 11: not again in a toast, which said "Wrong code" twice), and "Resend code"
 * counts down to when another code may be asked for (the server's `resendAfterSeconds`, issue 13).
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { storage } from '../../../lib/storage';
import { ApiError } from '../../../lib/api-client';
import { navigate } from '../../../lib/use-route';
import { finishSignIn } from '../finish-sign-in';
import { Button } from '../../../ui/button';
import { touchedError } from '../../../ui/field';
import { CodeField } from './code-field';
import { InfoIcon } from '../../../ui/icons';
import { pendingCode, rememberResendAfter, sendCode, useRequestCode, useVerifyCode } from '../api/auth.api';
import { useSecondsUntil } from '../use-seconds-until';
import { otpSchema, type OtpForm } from '../validation';
import { AuthCard } from './auth-card';

export default function OtpScreen() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  // Read once: a successful verify removes both, and that must not count as "missing" (which would
  // bounce through LOGIN and flash the QR screen before PERSONAL_DATA).
  const [email] = useState(() => storage.get('email'));
  const [session] = useState(() => storage.get('sessionId'));
  const verify = useVerifyCode();
  const resend = useRequestCode();
  const [tip, setTip] = useState(false);
  // The server's message key for the last refused code, shown in the field's error slot until the code changes.
  const [refused, setRefused] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(() => Number(storage.get('codeResendAt')) || 0);
  const resendIn = useSecondsUntil(resendAt);
  const { register, handleSubmit, formState } = useForm<OtpForm>({
    resolver: standardSchemaResolver(otpSchema),
    mode: 'onTouched',
    defaultValues: { otp: '' },
  });

  useEffect(() => {
    if (!email) toast.error(t('validation.email_invalid'));
    if (!email || !session) navigate({ tab: 'LOGIN' }, { replace: true });
  }, [email, session, t]);

  const onSubmit = handleSubmit(async ({ otp }) => {
    if (!email || !session) return;
    try {
      const tokens = await verify.mutateAsync({ otp, session: storage.get('sessionId') ?? session, email });
      await finishSignIn(qc, tokens);
    } catch (err) {
      const body = err instanceof ApiError ? err.body : {};
      // A spent sign-in comes back with a new session whose code is on its way (spec sections 3 and 8).
      const renewed = typeof body.sessionId === 'string';
      if (renewed) storage.set('sessionId', body.sessionId as string);
      const message = renewed
        ? t('otp.new_code_sent')
        : t(err instanceof ApiError && err.message !== 'request_failed' ? err.message : 'otp.invalid_token');
      setRefused(message);
    }
  });

  const onResend = async () => {
    if (!email) return;
    try {
      const { sessionId, resendAfterSeconds } = await resend.mutateAsync({ email, locale: i18n.language });
      storage.set('sessionId', sessionId);
      setResendAt(rememberResendAfter(resendAfterSeconds));
      toast.success(t('otp.resent'), { action: sendCode });
    } catch (err) {
      const pending = pendingCode(err);
      if (pending) {
        // Asked too soon but the code already sent is open: keep its session and show the countdown.
        storage.set('sessionId', pending.sessionId);
        setResendAt(rememberResendAfter(pending.resendAfterSeconds));
        return;
      }
      toast.error(t(err instanceof ApiError ? err.message : 'request_failed'), { action: sendCode });
    }
  };

  return (
    <AuthCard
      title={t('otp.title')}
      subtitle={
        <>
          {t('otp.subtitle')} <strong className="nowrap">{email}</strong>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="stack">
        <CodeField
          label={t('otp.code')}
          error={touchedError(t, formState, 'otp', 'validation.otp_length') ?? refused ?? undefined}
          extra={
            <span className="tooltip">
              <button
                type="button"
                className="icon-btn icon-btn--small"
                aria-label={t('otp.what_is')}
                aria-expanded={tip}
                onClick={() => setTip((v) => !v)}
                onBlur={() => setTip(false)}
              >
                <InfoIcon />
              </button>
              {tip && (
                <span role="tooltip" className="tooltip__bubble">
                  {t('otp.tooltip')}
                </span>
              )}
            </span>
          }
          {...register('otp', { onChange: () => setRefused(null) })}
        />
        <Button type="submit" disabled={!formState.isValid || resend.isPending} loading={verify.isPending}>
          {t('common.continue')}
        </Button>
      </form>
      <div className="auth-links">
        <button type="button" className="link" onClick={onResend} disabled={resend.isPending || resendIn > 0}>
          {resendIn > 0 ? t('feedback.resend_in', { count: resendIn }) : t('otp.resend')}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            // Back is "use another e-mail": without a stored e-mail LOGIN does not send a code by itself.
            storage.remove('sessionId');
            storage.remove('email');
            navigate({ tab: 'LOGIN' }, { replace: true });
          }}
        >
          {t('otp.back')}
        </button>
      </div>
    </AuthCard>
  );
}
