/**
 * The console's step-up sheet (issue 47, decision 048 "The console gap"): opened over the screen when an organiser call
 * that grants lasting access or moves money (a new API key or member, the payout account) answered 403
 * `api.auth.step_up_required` (console/api.ts `stepUpHost`). When the account has a passkey and the browser can use it
 * (decision 049), "Use your passkey" comes first, with "Send me a code instead" beside it; otherwise a code for the
 * refused action is e-mailed at once, typed and checked. Done, the refused call is sent again and goes on where it was
 * (the new key is shown); Cancel or Escape ends it with its refusal, which the screen shows as any other error. Calls
 * refused together share one sheet.
 */
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { StepUpAction } from '@tp/contract/constants';
import { usePasskeyConfirm, useStepUpMode } from '../../../lib/passkey-step-up';
import { PasskeyCancelled } from '../../../lib/webauthn';
import { Button } from '../../../ui/button';
import { ApiError, hasPasskey, requestStepUpCode, stepUpHost, stepUpWithPasskey, verifyStepUpCode } from '../../api';
import { CodeField } from '../../code-field';
import { Dialog } from '../../dialog';
import { errorText } from '../../errors';
import { FormFooter } from '../../form-footer';
import { ErrorBlock, placeServerErrors } from '../../server-errors';

/** Answers the console's step-up asks while mounted (the signed-in console): the sheet for the refused action. */
export function StepUpHost() {
  const [asked, setAsked] = useState<{ action: StepUpAction; done: (steppedUp: boolean) => void } | null>(null);
  useEffect(() => {
    let open: Promise<boolean> | null = null;
    stepUpHost.ask = (action) =>
      (open ??= new Promise<boolean>((done) => setAsked({ action, done })).finally(() => {
        open = null;
      }));
    return () => {
      delete stepUpHost.ask;
    };
  }, []);
  const onDone = useCallback(
    (steppedUp: boolean) => {
      asked?.done(steppedUp);
      setAsked(null);
    },
    [asked],
  );
  return asked && <StepUpSheet action={asked.action} onDone={onDone} />;
}

/** Props of the sheet's steps: the refused action in words, and what to do once stepped up (or cancelled). */
interface StepProps {
  action: StepUpAction;
  what: string;
  onDone: (steppedUp: boolean) => void;
}

/** The sheet: a dialog with the passkey first when the account has one (asked once when it opens), else the code. */
function StepUpSheet({ action, onDone }: { action: StepUpAction; onDone: (steppedUp: boolean) => void }) {
  const { t } = useTranslation();
  const cancel = useCallback(() => onDone(false), [onDone]);
  const [mode, setMode] = useStepUpMode(hasPasskey);
  const step = { action, what: t(`console.step_up.action.${action}`), onDone };
  return (
    <Dialog kind="sheet" labelledBy="step-up-title" onClose={cancel}>
      <h2 id="step-up-title">{t('console.step_up.title')}</h2>
      {mode === 'code' ? (
        <CodeStep {...step} />
      ) : (
        <PasskeyStep {...step} checking={mode === 'checking'} onCode={() => setMode('code')} />
      )}
      <p className="muted">{t('console.step_up.why')}</p>
      <Button variant="secondary" onClick={cancel}>
        {t('console.cancel')}
      </Button>
    </Dialog>
  );
}

/** "Use your passkey": the browser asks for one of the account's passkeys; "Send me a code instead" goes to the code. */
function PasskeyStep(props: StepProps & { checking: boolean; onCode: () => void }) {
  const { t } = useTranslation();
  const { busy, refused, confirm } = usePasskeyConfirm(stepUpWithPasskey, props.onDone, (err) =>
    err instanceof PasskeyCancelled ? t('console.step_up.passkey_cancelled') : errorText(t, err),
  );
  return (
    <>
      <p role="status" aria-busy={props.checking || undefined}>
        {t('console.step_up.passkey_lead', { action: props.what })}
      </p>
      <ErrorBlock message={refused} />
      <Button disabled={props.checking} loading={busy} onClick={() => void confirm()}>
        {t('console.step_up.passkey_use')}
      </Button>
      <Button variant="ghost" disabled={busy} onClick={props.onCode}>
        {t('console.step_up.code_instead')}
      </Button>
    </>
  );
}

/** The e-mailed code: sent at once for the refused action, typed, checked; "Send a new code" asks again. */
function CodeStep({ action, what, onDone }: StepProps) {
  const { t } = useTranslation();
  // undefined: being sent; null: sent a moment ago (asked again within the minute: that code still works).
  const [sentTo, setSentTo] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<{ code: string }>();
  const send = useCallback(
    (first: boolean) =>
      requestStepUpCode(action).then(
        (email) => {
          setSentTo(email);
          setError(null);
        },
        (err: unknown) => {
          if (first && err instanceof ApiError && err.message === 'api.auth.resend_too_soon') setSentTo(null);
          else setError(errorText(t, err));
        },
      ),
    [action, t],
  );
  useEffect(() => {
    void send(true);
  }, [send]);
  const submit = form.handleSubmit(async ({ code }) => {
    setError(null);
    try {
      await verifyStepUpCode(code.trim());
      onDone(true);
    } catch (err) {
      setError(placeServerErrors(t, form, err, { otp: 'code' }) || null);
    }
  });
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
      <p role="status">
        {sentTo === undefined
          ? t('console.step_up.sending')
          : sentTo
            ? t('console.step_up.sent', { action: what, email: sentTo })
            : t('console.step_up.sent_earlier', { action: what })}
      </p>
      <CodeField form={form} />
      <ErrorBlock message={error} />
      <FormFooter bare submit={t('console.step_up.confirm')} pending={form.formState.isSubmitting} />
      <Button variant="ghost" onClick={() => void send(false)}>
        {t('console.step_up.resend')}
      </Button>
    </form>
  );
}
