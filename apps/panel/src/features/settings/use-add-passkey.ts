/**
 * "Add a passkey" (issue 47), as Settings' passkeys section and the offer after a sign-in both do it: the browser
 * makes the key (`lib/webauthn`), the server keeps its public half (a step-up route: the panel's client asks
 * "Confirm it's you" when needed). Texts from the `passkeys` catalogue.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { toast } from '../../lib/toast';
import { PasskeyCancelled } from '../../lib/webauthn';
import { addPasskey } from './api/passkeys.api';

/**
 * Makes a passkey and adds it to the account, saying what happened: "Passkey added", or nothing beyond
 * `onCancelled` when the browser or the person refused, or the API's refusal as an error toast. Refreshes the list.
 * `add` resolves true when a passkey was added; `adding` is true while it runs.
 */
export function useAddPasskey(onCancelled: () => void) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  const add = async (): Promise<boolean> => {
    setAdding(true);
    try {
      await addPasskey();
      toast.success(t('account_passkeys.added_toast'));
      return true;
    } catch (err) {
      if (err instanceof PasskeyCancelled) onCancelled();
      else toast.error(t(errorKey(err)));
      return false;
    } finally {
      setAdding(false);
      void qc.invalidateQueries({ queryKey: queryKeys.user.passkeys });
    }
  };
  return { adding, add };
}
