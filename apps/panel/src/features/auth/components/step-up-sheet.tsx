/**
 * The step-up sheet (issue 47): opened over the screen when a call that moves a ticket or money answered 403
 * `api.auth.step_up_required` (lib/api-client.ts `clientConfig.stepUp`). When the account has a passkey and the browser
 * can use it (decision 049), it offers the passkey first ("Use your passkey"), with "Send me a code instead" beside
 * it. Otherwise it asks for a code by e-mail for the refused action
 * at once ("To gift a ticket, enter the code we sent to …"), checks it, and closes: the call then goes on where it
 * was. Cancel (or Escape, Back) ends the call with its refusal. "Send a new code" counts down to when the server
 * takes another (OTP_RESEND_SECONDS). Its texts are the `step_up` catalogue (lib/feature-catalogues.ts), loaded with
 * this sheet.
 */
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { useTranslation } from 'react-i18next';
import type { StepUpAction } from '@tp/contract/constants';
import { ApiError, errorKey } from '../../../lib/api-client';
import { loadCatalogue } from '../../../lib/feature-catalogues';
import { toast } from '../../../lib/toast';
import { Button } from '../../../ui/button';
import { touchedError } from '../../../ui/field';
import { CodeField } from './code-field';
import { Modal } from '../../../ui/modal';
import { requestStepUpCode, verifyStepUpCode } from '../api/step-up.api';
import { hasPasskey, stepUpWithPasskey } from '../api/passkeys.api';
import { PasskeyCancelled } from '../../../lib/webauthn';
import { usePasskeyConfirm, useStepUpMode } from '../../../lib/passkey-step-up';
import { useSecondsUntil } from '../use-seconds-until';
import { otpSchema, type OtpForm } from '../validation';

/** This sheet once its texts (the `step_up` catalogue) are in: what the signed-in panel's `lazy` loads. */
export const withTexts = () => loadCatalogue('step_up').then(() => ({ default: StepUp }));

/** Props of the sheet: the refused action, and what to do once it is done (stepped up, or cancelled). */
interface SheetProps {
  action: string;
  onDone: (steppedUp: boolean) => void;
}

/** The sheet: the passkey first when the account has one (asked once when it opens), else the e-mail code. */
function StepUp(props: SheetProps) {
  const [mode, setMode] = useStepUpMode(hasPasskey);
  if (mode === 'code') return <StepUpSheet {...props} />;
  return <PasskeyStep {...props} checking={mode === 'checking'} onCode={() => setMode('code')} />;
}

/** "Use your passkey": the browser asks for one of the account's passkeys; "Send me a code instead" goes to the code. */
function PasskeyStep(props: SheetProps & { checking: boolean; onCode: () => void }) {
  const { t } = useTranslation();
  const { onDone } = props;
  const cancel = useCallback(() => onDone(false), [onDone]);
  const { busy, refused, confirm } = usePasskeyConfirm(stepUpWithPasskey, onDone, (err) =>
    t(err instanceof PasskeyCancelled ? 'step_up.passkey_cancelled' : errorKey(err)),
  );
  return (
    <Modal title={t('step_up.title')} onClose={cancel}>
      <div className="stack" aria-busy={props.checking || undefined}>
        <p role="status">
          {t('step_up.passkey_lead', { action: t(`step_up.action.${props.action as StepUpAction}`) })}
        </p>
        {refused && (
          <p className="field__error" role="alert">
            {refused}
          </p>
        )}
        <p className="muted">{t('step_up.why')}</p>
        <Button disabled={props.checking} loading={busy} onClick={() => void confirm()}>
          {t('step_up.passkey_use')}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={props.onCode}>
          {t('step_up.passkey_code_instead')}
        </Button>
        <Button variant="secondary" onClick={cancel}>
          {t('step_up.cancel')}
        </Button>
      </div>
    </Modal>
  );
}

type Sent = { state: 'sending' } | { state: 'sent'; email: string | null } | { state: 'failed'; key: string };

/** The e-mail code: sent at once for the refused action, checked, then done. */
function StepUpSheet(props: SheetProps) {
  const { t } = useTranslation();
  // As the API's refusal names it (one of STEP_UP_ACTIONS); the step-up request checks it again.
  const action = props.action as StepUpAction;
  const what = t(`step_up.action.${action}`);
  const [sent, setSent] = useState<Sent>({ state: 'sending' });
  const [resendAt, setResendAt] = useState(0);
  const resendIn = useSecondsUntil(resendAt);
  const [refused, setRefused] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { register, handleSubmit, formState } = useForm<OtpForm>({
    resolver: standardSchemaResolver(otpSchema),
    mode: 'onTouched',
    defaultValues: { otp: '' },
  });

  const onSent = (r: { sentTo: string; resendAfterSeconds: number }, again: boolean) => {
    setSent({ state: 'sent', email: r.sentTo });
    setResendAt(Date.now() + r.resendAfterSeconds * 1000);
    if (again) toast.success(t('step_up.resent'));
  };
  const onRefused = (err: unknown) => {
    // Asked again within the minute (a sheet opened twice): the code sent a moment ago still works.
    if (err instanceof ApiError && err.message === 'api.auth.resend_too_soon') {
      setSent((s) => (s.state === 'sent' ? s : { state: 'sent', email: null }));
      setResendAt(Date.now() + 60_000);
      return;
    }
    setSent({ state: 'failed', key: errorKey(err) });
  };
  const send = () => requestStepUpCode(action).then((r) => onSent(r, true), onRefused);
  useEffect(() => {
    // Once per sheet: the code for the refused action.
    requestStepUpCode(action).then((r) => onSent(r, false), onRefused);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the handlers are this render's; the first ones do
  }, [action]);

  const { onDone } = props;
  const cancel = useCallback(() => onDone(false), [onDone]);
  const onSubmit = handleSubmit(async ({ otp }) => {
    setChecking(true);
    try {
      await verifyStepUpCode(otp);
      onDone(true);
    } catch (err) {
      setRefused(t(errorKey(err)));
      setChecking(false);
    }
  });

  return (
    <Modal title={t('step_up.title')} onClose={cancel}>
      <form onSubmit={onSubmit} noValidate className="stack">
        <p role="status">
          {sent.state === 'sending'
            ? t('step_up.sending')
            : sent.state === 'failed'
              ? t(sent.key)
              : sent.email
                ? t('step_up.sent', { action: what, email: sent.email })
                : t('step_up.sent_earlier', { action: what })}
        </p>
        <CodeField
          label={t('step_up.code')}
          error={touchedError(t, formState, 'otp', 'validation.otp_length') ?? refused ?? undefined}
          {...register('otp', { onChange: () => setRefused(null) })}
        />
        <p className="muted">{t('step_up.why')}</p>
        <Button type="submit" disabled={!formState.isValid} loading={checking}>
          {t('step_up.confirm')}
        </Button>
        <Button
          type="button"
          variant="ghost"
          disabled={resendIn > 0 || sent.state === 'sending'}
          onClick={() => void send()}
        >
          {resendIn > 0 ? t('step_up.resend_in', { count: resendIn }) : t('step_up.resend')}
        </Button>
        <Button type="button" variant="secondary" onClick={cancel}>
          {t('step_up.cancel')}
        </Button>
      </form>
    </Modal>
  );
}
