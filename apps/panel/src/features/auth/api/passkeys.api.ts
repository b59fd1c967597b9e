/**
 * Passkey sign-in and step-up calls (issue 47, decision 049): the options from the server, the browser's answer
 * (lib/webauthn.ts), the answer checked by the server. Neither step-up call is itself a step-up route.
 */
import { client } from '../../../lib/api-client';
import { getPasskey, getPasskeyByAutofill, preloadPasskeys } from '../../../lib/webauthn';

/**
 * Signs in with a passkey of this site: the browser asks which one (`autofill`: offers them in the e-mail field's
 * autofill instead, lib/webauthn.ts `getPasskeyByAutofill`). The token pair, as a verified code's; null when the
 * autofill offer lapsed unanswered (ask again).
 * @throws PasskeyCancelled (the browser or the person gave none), ApiError `api.auth.passkey_failed`
 */
export async function signInWithPasskey(autofill = false) {
  preloadPasskeys();
  const { options } = await client.POST('/v1/auth/passkeys/sign-in/options');
  const response = await (autofill ? getPasskeyByAutofill(options) : getPasskey(options));
  return response && client.POST('/v1/auth/passkeys/sign-in', { body: { response } });
}

/** Whether the signed-in account has a passkey (the step-up sheet offers it first then). */
export const hasPasskey = async () => (await client.GET('/v1/auth/passkeys')).length > 0;

/**
 * Confirms presence with one of the account's passkeys: until when (ISO 8601) the session may move tickets and money.
 * @throws PasskeyCancelled, ApiError `api.auth.passkey_failed` / `api.auth.passkey_not_found`
 */
export async function stepUpWithPasskey() {
  const { options } = await client.POST('/v1/auth/step-up/passkey/options');
  const response = await getPasskey(options);
  return client.POST('/v1/auth/step-up/passkey', { body: { response } });
}
