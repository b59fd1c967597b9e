/**
 * Sign-in by e-mail code (the holders' flow, `/v1/auth/*`, through the session's calls of console/api.ts): the
 * e-mail, then the 6-digit code. The API's field errors show at their fields, the rest in the form's error block.
 * Beside the e-mail, where the browser can use passkeys, "Use a passkey" (issue 47, decision 049): the browser asks
 * for one of this site's, and the console opens as after the code. A prompt the person cancels leaves the form as it
 * was, with no error; a passkey the server refuses is said in the error block (the e-mail code always works).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { PasskeyCancelled, passkeysSupported } from '../../../lib/webauthn';
import { requestCode, signInWithPasskey, verifyCode } from '../../api';
import { CodeField } from '../../code-field';
import { FormFooter } from '../../form-footer';
import { ErrorBlock, placeServerErrors } from '../../server-errors';

export function SignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const [sent, setSent] = useState<{ email: string; session: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const emailForm = useForm<{ email: string }>();
  const codeForm = useForm<{ code: string }>();

  const submitEmail = emailForm.handleSubmit(async ({ email }) => {
    setError(null);
    try {
      setSent({ email, session: await requestCode(email, i18n.language) });
    } catch (err) {
      setError(placeServerErrors(t, emailForm, err) || null);
    }
  });
  const signInByPasskey = async () => {
    setError(null);
    setPasskeyPending(true);
    try {
      await signInWithPasskey();
      await onSignedIn();
    } catch (err) {
      if (!(err instanceof PasskeyCancelled)) setError(placeServerErrors(t, emailForm, err) || null);
      setPasskeyPending(false);
    }
  };
  const submitCode = codeForm.handleSubmit(async ({ code }) => {
    setError(null);
    try {
      await verifyCode(sent!.email, sent!.session, code.trim());
      await onSignedIn();
    } catch (err) {
      setError(placeServerErrors(t, codeForm, err, { otp: 'code' }) || null);
    }
  });

  return (
    <section className="card narrow">
      <h1>{t('console.sign_in_title')}</h1>
      {!sent ? (
        <form className="stack" onSubmit={(e) => void submitEmail(e)} noValidate>
          <p className="muted">{t('console.sign_in_help')}</p>
          <Field
            label={t('console.email')}
            type="email"
            autoComplete="email"
            error={emailForm.formState.errors.email?.message}
            {...emailForm.register('email', { required: true })}
          />
          <ErrorBlock message={error} />
          <FormFooter bare submit={t('console.send_code')} pending={emailForm.formState.isSubmitting} />
          {passkeysSupported() && (
            <Button variant="secondary" loading={passkeyPending} onClick={() => void signInByPasskey()}>
              {t('console.use_passkey')}
            </Button>
          )}
        </form>
      ) : (
        <form className="stack" onSubmit={(e) => void submitCode(e)} noValidate>
          <p className="muted">{t('console.code_sent', { email: sent.email })}</p>
          <CodeField form={codeForm} />
          <ErrorBlock message={error} />
          <FormFooter bare submit={t('console.sign_in')} pending={codeForm.formState.isSubmitting} />
        </form>
      )}
    </section>
  );
}
