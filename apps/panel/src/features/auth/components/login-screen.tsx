/**
 * LOGIN (spec section 2): e-mail and Continue; stores the e-mail and session id, then OTP.
 * A stored e-mail (kept from the login request until the code is verified, spec section 3) with a token:
 * load the user first; with no token: send the login request by itself, once (spec 2 Login). When a code
 * was sent less than OTP_RESEND_SECONDS ago (api.auth.resend_too_soon) and that code is still open, the
 * answer names its session and the seconds left (issue 23): go to OTP with the resend countdown, for the
 * holder asking by hand as for the automatic request. A stored session is used when the answer names none.
 * "Use a passkey" (issue 47) signs in without a code where the browser has WebAuthn (features/auth/passkey-sign-in.ts,
 * loaded when pressed), and the e-mail field's autofill offers the passkeys (conditional UI) from its first focus.
 * LOGIN and OTP share one history entry (issue 40 point 3): once signed in, Back from the pass leaves the panel
 * rather than landing on a sign-in entry that now shows the same pass.
 */
import { useEffect, useEffectEvent, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { storage } from '../../../lib/storage';
import { useUser } from '../../../lib/queries';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Field, touchedError } from '../../../ui/field';
import { pendingCode, rememberResendAfter, sendCode, useRequestCode } from '../api/auth.api';
import { emailSchema, type EmailForm } from '../validation';
import { AuthCard } from './auth-card';

export default function LoginScreen() {
  const { t, i18n } = useTranslation();
  const request = useRequestCode();
  const user = useUser();
  const { register, handleSubmit, formState } = useForm<EmailForm>({
    resolver: standardSchemaResolver(emailSchema),
    mode: 'onTouched',
    defaultValues: { email: storage.get('email') ?? '' },
  });
  // A stored e-mail with a token: try the user first (spec 2 Login).
  useEffect(() => {
    if (user.data) navigate({ tab: 'QR', overlay: 'HUB' }, { replace: true });
  }, [user.data]);

  const send = async (email: string, auto: boolean) => {
    try {
      const { sessionId, resendAfterSeconds } = await request.mutateAsync({ email, locale: i18n.language });
      storage.set('email', email);
      storage.set('sessionId', sessionId);
      rememberResendAfter(resendAfterSeconds);
      navigate({ tab: 'OTP' }, { replace: true });
    } catch (err) {
      const key = (err as Error).message;
      const pending = pendingCode(err);
      if (pending) {
        // The code already sent is still good: its code step, counting down to when another may be asked for.
        storage.set('email', email);
        storage.set('sessionId', pending.sessionId);
        rememberResendAfter(pending.resendAfterSeconds);
        navigate({ tab: 'OTP' }, { replace: true });
        return;
      }
      if (auto && key === 'api.auth.resend_too_soon' && storage.get('sessionId')) {
        navigate({ tab: 'OTP' }, { replace: true });
        return;
      }
      toast.error(t(key === 'api.auth.resend_too_soon' || key === 'api.too_many_requests' ? key : failureKey(err)), {
        action: sendCode,
      });
    }
  };
  const onSubmit = handleSubmit(({ email }) => send(email, false));

  // Sends the code by itself when an e-mail is stored and no token exists; once per visit of the screen.
  const autoSent = useRef(false);
  const autoSend = useEffectEvent(() => {
    const stored = storage.get('email');
    if (autoSent.current || !stored || storage.get('accessToken')) return;
    autoSent.current = true;
    void send(stored, true);
  });
  useEffect(() => autoSend(), []);
  // "Use a passkey" (autofill: the field's focus offers them in its autofill); its code loads then.
  const passkeys = typeof PublicKeyCredential == 'function';
  const passkey = (autofill?: boolean) => void import('../passkey-sign-in').then((m) => m.passkeySignIn(autofill));
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={onSubmit} noValidate className="stack">
        <Field
          label={t('login.email')}
          type="email"
          autoComplete="email webauthn"
          inputMode="email"
          onFocus={() => passkey(true)}
          placeholder={t('login.email_placeholder')}
          error={touchedError(t, formState, 'email', 'validation.email_invalid')}
          {...register('email')}
        />
        <Button type="submit" disabled={!formState.isValid} loading={request.isPending}>
          {t('common.continue')}
        </Button>
        {passkeys && (
          <Button variant="ghost" onClick={() => passkey()}>
            {t('login.passkey')}
          </Button>
        )}
      </form>
      <p className="fineprint">{t('login.terms')}</p>
    </AuthCard>
  );
}
