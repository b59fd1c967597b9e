/**
 * "Use a passkey" on LOGIN (issue 47, decision 049), loaded when pressed (the LOGIN screen's first load carries only
 * the button): the browser asks for a passkey of this site, the server checks it and opens a session as a verified
 * e-mail code does, and the panel goes on as after the code (`finishSignIn`). No passkey given, or one that does not
 * check out: said in a toast, and the e-mail field is still there: the code always works.
 */
import i18next from 'i18next';
import { errorKey } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { loadCatalogue } from '../../lib/feature-catalogues';
import { toast } from '../../lib/toast';
import { PasskeyCancelled } from '../../lib/webauthn';
import { signInWithPasskey } from './api/passkeys.api';
import { finishSignIn } from './finish-sign-in';

/** Signs in with a passkey, then goes on to the signed-in screen; a refusal is a toast (texts: `step_up`). */
export async function passkeySignIn(): Promise<void> {
  const texts = loadCatalogue('step_up');
  try {
    await finishSignIn(queryClient, await signInWithPasskey());
  } catch (err) {
    await texts;
    toast.error(i18next.t(err instanceof PasskeyCancelled ? 'step_up.passkey_cancelled' : errorKey(err)));
  }
}
