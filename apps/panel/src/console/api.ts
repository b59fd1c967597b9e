/**
 * The console's calls to /v1 (decision 024): the holders' e-mail code sign-in (`/v1/auth/*`, whose refresh cookie
 * keeps the console signed in across reloads), the exchange for a console token of one organisation
 * (`/v1/console/session`), and the organiser API (`/v1/org/*`) with that token, each through the typed client shared
 * with the panel and the scanner (lib/typed-client.ts). An error answer becomes its `ApiError` carrying the body
 * (`message` key, `detail`, `fields`, an import's `errors`). An organiser call refused for want of a fresh proof of
 * presence (403 `api.auth.step_up_required`: a new API key or member, the payout account; decision 048) asks the
 * console's step-up sheet (`stepUpHost`) and is sent once more when the member proved it (the step-up calls below,
 * with the holder token of the sign-in the console token was opened from).
 */
import type { Membership } from '@tp/contract';
import type { StepUpAction } from '@tp/contract/constants';
import { langOf } from '@tp/contract/locale';
import { ApiError, createTypedClient } from '../lib/typed-client';
import { getPasskey, preloadPasskeys } from '../lib/webauthn';

export { ApiError };

/** A page of the organiser API's lists: the items and the next page's cursor (null on the last). */
export type Page<T> = { items: T[]; nextCursor: string | null };

/** One refused row of a CSV import (the `errors` of an `api.org.import.invalid_rows` answer). */
export interface ImportRowError {
  row: number;
  message: string;
  field?: string;
  detail?: string;
  value?: string;
}

/** The rows of an import error's body, or none. */
export const importRowErrors = (err: unknown): ImportRowError[] | undefined =>
  err instanceof ApiError && Array.isArray(err.body.errors) ? (err.body.errors as ImportRowError[]) : undefined;

const ORG_KEY = 'console.organisation';
let holderToken: string | null = null;
let consoleToken: string | null = null;

const common = { fetch: () => fetch, init: { credentials: 'same-origin' } as const };

/** The holder's calls (`/v1/auth/*`, `/v1/console/*`) with the holder token. */
const holder = createTypedClient({
  ...common,
  prepare: (headers) => {
    if (holderToken) headers.authorization = `Bearer ${holderToken}`;
  },
});

/** Public calls that ask the server every time (`cache: 'no-cache'`), past the browser's stored copy. */
export const fresh = createTypedClient({ fetch: () => fetch, init: { cache: 'no-cache' } });

/** POST /auth/signInOrRegisterAndSignIn: e-mails a code; returns the sign-in session id. */
export async function requestCode(email: string, locale: string): Promise<string> {
  const r = await holder.POST('/v1/auth/signInOrRegisterAndSignIn', { body: { email, locale: langOf(locale) } });
  return r.sessionId;
}

/** POST /auth/verifyLoginRequest: signs in with the code (the refresh cookie is set for reloads). */
export async function verifyCode(email: string, session: string, otp: string): Promise<void> {
  const r = await holder.POST('/v1/auth/verifyLoginRequest', { body: { email, session, otp } });
  holderToken = r.accessToken;
}

/**
 * Signs in with a passkey of this site (issue 47, decision 049; the panel's routes `/v1/auth/passkeys/sign-in/…`):
 * the browser asks which one, the server checks it and opens a session as a verified code does (refresh cookie too).
 * @throws PasskeyCancelled (lib/webauthn.ts: the browser or the person gave none), ApiError `api.auth.passkey_failed`
 */
export async function signInWithPasskey(): Promise<void> {
  preloadPasskeys();
  const { options } = await holder.POST('/v1/auth/passkeys/sign-in/options');
  const response = await getPasskey(options);
  const r = await holder.POST('/v1/auth/passkeys/sign-in', { body: { response } });
  holderToken = r.accessToken;
}

/** Signs in again from the refresh cookie (a reload); false when there is no live sign-in. */
export async function resume(): Promise<boolean> {
  try {
    const r = await holder.POST('/v1/auth/refresh', { body: {} });
    holderToken = r.accessToken;
    return true;
  } catch {
    return false;
  }
}

/** GET /console/organisations: the organisations the signed-in account is a member of. */
export const memberships = (): Promise<Membership[]> => holder.GET('/v1/console/organisations');

/** POST /console/session: a console token for the organisation; remembered for this tab's reloads. */
export async function openOrganisation(organisationId: number): Promise<Membership> {
  const r = await holder.POST('/v1/console/session', { body: { organisationId } });
  consoleToken = r.accessToken;
  sessionStorage.setItem(ORG_KEY, String(organisationId));
  return r.membership;
}

/** The organisation this tab worked on before a reload, if any. */
export const rememberedOrganisation = (): number | null => Number(sessionStorage.getItem(ORG_KEY)) || null;

/** Signs out (the holder session and with it the console token end on the server). */
export async function signOut(): Promise<void> {
  sessionStorage.removeItem(ORG_KEY);
  await holder.GET('/v1/auth/logout').catch(() => undefined);
  holderToken = consoleToken = null;
}

/**
 * POST /auth/step-up: e-mails a step-up code for `action` (one of the contract's STEP_UP_ACTIONS, as the refusal
 * named it) to the signed-in member's address.
 * @returns the address it went to
 * @throws ApiError `api.auth.resend_too_soon` within a minute of the last code
 */
export async function requestStepUpCode(action: StepUpAction): Promise<string> {
  return (await holder.POST('/v1/auth/step-up', { body: { action } })).sentTo;
}

/**
 * POST /auth/step-up/verify: checks the e-mailed code; the sign-in (and so its console token) is stepped up.
 * @throws ApiError `api.auth.wrong_otp`, `api.auth.otp_expired`, `api.auth.otp_attempts_exceeded`,
 *   `api.auth.step_up_no_code`
 */
export async function verifyStepUpCode(otp: string): Promise<void> {
  await holder.POST('/v1/auth/step-up/verify', { body: { otp } });
}

/** Whether the signed-in member's account has a passkey (the step-up sheet offers it first then). */
export const hasPasskey = async (): Promise<boolean> => (await holder.GET('/v1/auth/passkeys')).length > 0;

/**
 * Confirms presence with one of the account's passkeys (the panel's routes `/v1/auth/step-up/passkey…`).
 * @throws PasskeyCancelled, ApiError `api.auth.passkey_failed` / `api.auth.passkey_not_found`
 */
export async function stepUpWithPasskey(): Promise<void> {
  const { options } = await holder.POST('/v1/auth/step-up/passkey/options');
  const response = await getPasskey(options);
  await holder.POST('/v1/auth/step-up/passkey', { body: { response } });
}

/**
 * Where an organiser call refused for want of a step-up asks the member (set by the step-up sheet's host while the
 * console is open, console/step-up/components/step-up-sheet.tsx): resolves true once the sign-in is stepped up, false when the
 * member cancels. Unset: the call fails with its 403.
 */
export const stepUpHost: { ask?: (action: StepUpAction) => Promise<boolean> } = {};

/**
 * The organiser API (`/v1/org/*`) with the console token: the typed client of lib/typed-client.ts. A 401 (the
 * token's lifetime ended) renews the holder token from the refresh cookie and the console token once, then tries
 * again; a 403 `api.auth.step_up_required` asks {@link stepUpHost} and tries once more after a step-up. Throws
 * {@link ApiError}.
 */
export const org = createTypedClient({
  ...common,
  prepare: (headers) => {
    if (consoleToken) headers.authorization = `Bearer ${consoleToken}`;
  },
  async renew() {
    const organisationId = rememberedOrganisation();
    if (!organisationId || !(await resume())) return false;
    await openOrganisation(organisationId);
    return true;
  },
  // As the API's refusal names it (one of STEP_UP_ACTIONS); the step-up request checks it again.
  stepUp: (action) => stepUpHost.ask?.(action as StepUpAction) ?? Promise.resolve(false),
});
