/**
 * The passkey half of a step-up sheet (issue 47, decisions 048 and 049), shared by the panel's sheet and the
 * console's: which step comes first, and the run of the "Use your passkey" button.
 */
import { useEffect, useState } from 'react';
import { passkeysSupported } from './webauthn';

/** A step-up sheet's step: asking whether the account has a passkey, the passkey, or the e-mailed code. */
export type StepUpMode = 'checking' | 'passkey' | 'code';

/**
 * The sheet's first step: the passkey when the browser can use passkeys and the account has one (`hasPasskey`, asked
 * once when the sheet opens; a failure counts as none), else the code.
 * @returns the step and its setter ("Send me a code instead" sets `code`)
 */
export function useStepUpMode(hasPasskey: () => Promise<boolean>) {
  const [mode, setMode] = useState<StepUpMode>(() => (passkeysSupported() ? 'checking' : 'code'));
  useEffect(() => {
    if (mode === 'checking')
      hasPasskey().then(
        (has) => setMode(has ? 'passkey' : 'code'),
        () => setMode('code'),
      );
  }, [mode, hasPasskey]);
  return [mode, setMode] as const;
}

/**
 * The "Use your passkey" button: `confirm()` runs `stepUp` (the browser's prompt, then the server's check); done, it
 * calls `onDone(true)`; refused, `refused` is `say(err)` (the caller's words for a `PasskeyCancelled` prompt or an
 * `ApiError`) and the button may be pressed again. `busy` while it runs.
 */
export function usePasskeyConfirm(
  stepUp: () => Promise<unknown>,
  onDone: (steppedUp: boolean) => void,
  say: (err: unknown) => string,
) {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setRefused(null);
    try {
      await stepUp();
      onDone(true);
    } catch (err) {
      setRefused(say(err));
      setBusy(false);
    }
  };
  return { busy, refused, confirm };
}
