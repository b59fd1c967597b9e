/**
 * The panel's HTTP client (spec sections 4 Token refresh, 7, 8). Same-origin `/v1`, Bearer token
 * from storage, `X-Organisation` for a panel shown for one organisation. A 401 triggers ONE shared refresh that concurrent requests wait for; the request is
 * then retried once. If another tab already rotated the refresh token, its new tokens (now in
 * storage) are used instead of failing. On a real refresh failure both tokens are cleared and the
 * page reloads. A call the API shed (503 `api.busy` with `Retry-After`, decision 039) is sent once more after the
 * advised wait, at most 10 s with jitter (lib/typed-client.ts `retryBusy`: a shed request did no work, so a POST's
 * second try is as safe as a GET's); the person sees "very busy" only when that try is shed too (issue 44).
 * Failures throw ApiError (the one error type of lib/typed-client.ts, shared with the console and the
 * scanner) whose `message` is a server message key, `offline` (no network: the browser says it is offline, issue 20)
 * or `request_failed`.
 * Every call carries the panel's active language as `Accept-Language` (issue 29): the server writes the
 * e-mails a call causes (a gift to a new address, ...) in it.
 */
import { isLocale } from '@tp/contract/constants';
import { storage, clearSession } from './storage';
import { embedMode, organisationSlug } from './host-bridge';
import { ApiError, createTypedClient, type ClientConfig } from './typed-client';

export { ApiError };

/** The API's path prefix (the schema's paths carry it). */
export const API_BASE = '/v1';

/** Hooks the app can replace (tests, page reload). */
export const clientHooks = {
  reload: () => window.location.reload(),
  fetch: (...a: Parameters<typeof fetch>) => fetch(...a),
};

/** The refresh call's client: no credentials of its own, no renewal; a shed refresh is tried once more. */
const bare = createTypedClient({ fetch: () => clientHooks.fetch, retryBusy: true });

let refreshing: Promise<boolean> | null = null;
/** True when the last refresh was shed twice (503 `api.busy`): the tokens may still be good, the session is kept. */
let refreshShed = false;

/**
 * Exchanges the refresh token once for all waiting requests. Resolves true when a usable token is stored.
 * Embedded, the refresh token is the HttpOnly cookie the API set (decision 012): the body carries none,
 * and the cookie, shared by every frame of the host page, is always the latest.
 */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const embedded = embedMode !== 'standalone';
    const used = storage.get('refreshToken'); // null when embedded
    if (!used && !embedded) return false;
    refreshShed = false;
    try {
      const tokens = await bare.POST('/v1/auth/refresh', { body: used ? { refreshToken: used } : {} });
      storage.set('accessToken', tokens.accessToken);
      storage.set('refreshToken', tokens.refreshToken);
      return true;
    } catch (err) {
      // Refused or network: fall through.
      refreshShed = err instanceof ApiError && err.message === 'api.busy';
    }
    // Another tab may have rotated the token meanwhile: use its result.
    const now = storage.get('refreshToken');
    return Boolean(now && now !== used && storage.get('accessToken'));
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * The panel's typed client of `/v1` (paths as in the API document, `/v1/...`): resolves with the answer typed from
 * the schema, throws {@link ApiError}. Sends the Bearer token, `x-organisation` and `accept-language`; a 401 renews
 * the tokens (one shared refresh) and retries once, or clears the session and reloads (`api.unauthorized`); a shed
 * call (503 `api.busy`) is tried once more after its `Retry-After` (capped at 10 s, with jitter); a call that wants a
 * fresh proof of presence (403 `api.auth.step_up_required`) is tried once more after the step-up sheet got one: the
 * signed-in panel sets `clientConfig.stepUp` (app/signed-in-effects.tsx, issue 47); until then that 403 fails as it is.
 */
export const clientConfig: ClientConfig = {
  fetch: () => clientHooks.fetch,
  retryBusy: true,
  failedKey: () => (isOffline() ? 'offline' : 'request_failed'),
  prepare(headers) {
    // Encoded: a slug is unchanged, anything else still reaches the API (404) instead of failing in fetch.
    if (organisationSlug) headers['x-organisation'] = encodeURIComponent(organisationSlug);
    const token = storage.get('accessToken');
    if (token) headers.authorization = `Bearer ${token}`;
    // The panel's language (lib/i18n sets <html lang> from the path), not the browser's.
    const lang = document.documentElement.lang;
    if (isLocale(lang)) headers['accept-language'] = lang;
  },
  async renew(sent) {
    const token = sent.authorization?.slice('Bearer '.length);
    if (!token) return false;
    // A newer token may already be stored by a refresh that finished while we were waiting.
    const latest = storage.get('accessToken');
    if ((latest && latest !== token) || (await refreshTokens())) return true;
    // A shed refresh signs no one out: the call fails as "very busy" and the next one refreshes again.
    if (refreshShed) throw new ApiError('api.busy', 503);
    clearSession();
    clientHooks.reload();
    throw new ApiError('api.unauthorized', 401);
  },
};
/** The panel's typed client of `/v1`, as {@link clientConfig} says. */
export const client = createTypedClient(clientConfig);

/** True while the browser says it has no network. */
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * The message key of a failure to show in place of data: `offline` ("You're offline") when the request
 * failed for lack of network, `api.busy` ("very busy, try again") when the API shed it (503, decision 039), else
 * the generic `request_failed`.
 */
export const failureKey = (err: unknown): 'offline' | 'request_failed' | 'api.busy' =>
  err instanceof ApiError && err.message === 'api.busy'
    ? 'api.busy'
    : (err instanceof ApiError && err.message === 'offline') || (!(err instanceof ApiError) && isOffline())
      ? 'offline'
      : 'request_failed';

/** The translatable key of any error. */
export const errorKey = (err: unknown, fallback = 'request_failed') =>
  err instanceof ApiError ? err.message : fallback;
