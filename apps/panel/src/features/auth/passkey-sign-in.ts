/**
 * "Use a passkey" on LOGIN (issue 47, decision 049), loaded when pressed (the LOGIN screen's first load carries only
 * the button): the browser asks for a passkey of this site, the server checks it and opens a session as a verified
 * e-mail code does, and the panel goes on as after the code (`finishSignIn`). No passkey given, or one that does not
 * check out: said in a toast, and the e-mail field is still there: the code always works. Also loaded when the e-mail
 * field is first focused, to offer the passkeys in its autofill (conditional UI, decision 049).
 */
import i18next from 'i18next';
import { errorKey } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { loadCatalogue } from '../../lib/feature-catalogues';
import { toast } from '../../lib/toast';
import { PasskeyCancelled, passkeyAutofillSupported } from '../../lib/webauthn';
import { signInWithPasskey } from './api/passkeys.api';
import { finishSignIn } from './finish-sign-in';

/** The field whose autofill offers passkeys (LOGIN's e-mail field, `autocomplete="email webauthn"`). */
const AUTOFILL_FIELD = "input[autocomplete$='webauthn']";
/** Whether the autofill offer is running (started once, from the field's focus). */
let offering = false;

/**
 * Signs in with a passkey, then goes on to the signed-in screen; a refusal is a toast (texts: `step_up`).
 * `autofill` (the e-mail field focused, issue 47's conditional UI): the browser offers the passkeys in the field's
 * autofill, where it can, for as long as LOGIN shows the field (asked again before each challenge lapses); a
 * cancelled offer (another ceremony took over, e.g. "Use a passkey" pressed) ends quietly.
 */
export async function passkeySignIn(autofill = false): Promise<void> {
  if (autofill && offering) return;
  offering ||= autofill;
  try {
    if (autofill && !(await passkeyAutofillSupported())) return;
    let pair = await signInWithPasskey(autofill);
    while (!pair && document.querySelector(AUTOFILL_FIELD)) pair = await signInWithPasskey(true);
    if (pair) await finishSignIn(queryClient, pair);
  } catch (err) {
    if (autofill && err instanceof PasskeyCancelled) return;
    await loadCatalogue('step_up');
    toast.error(i18next.t(err instanceof PasskeyCancelled ? 'step_up.passkey_cancelled' : errorKey(err)));
  } finally {
    if (autofill) offering = false;
  }
}
