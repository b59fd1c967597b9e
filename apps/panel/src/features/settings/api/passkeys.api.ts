/**
 * The account's passkeys in Settings (issue 47, decision 049): list, add (the browser makes the key, the server keeps
 * its public half) and remove. Adding and removing are step-up routes: the panel's client opens "Confirm it's you"
 * when the proof is older than the window, then goes on.
 */
import { queryOptions } from '@tanstack/react-query';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { createPasskey } from '../../../lib/webauthn';

/** The account's passkeys, newest first: name, created, last used. */
export const listPasskeys = () => client.GET('/v1/auth/passkeys');

/** A passkey of the account as listed (never its key): id, name, `createdAt`, `lastUsedAt` (ISO 8601 or null). */
export type Passkey = Awaited<ReturnType<typeof listPasskeys>>[number];

/** The account's passkeys as a query (cache tag USER): Settings lists them, the offer of one asks whether any. */
export const passkeysQuery = queryOptions({ queryKey: queryKeys.user.passkeys, queryFn: listPasskeys });

/**
 * Makes a passkey in this browser and adds it to the account; the added passkey.
 * @throws PasskeyCancelled, ApiError `api.auth.passkey_failed` / `api.auth.passkey_limit`
 */
export async function addPasskey() {
  const { options } = await client.POST('/v1/auth/passkeys/register/options');
  const response = await createPasskey(options);
  return client.POST('/v1/auth/passkeys/register', { body: { response } });
}

/** Removes one of the account's passkeys. */
export const removePasskey = (id: string): Promise<void> =>
  client.DELETE('/v1/auth/passkeys/{id}', { params: { path: { id } } });
