/**
 * The panel's HTTP client (spec sections 4 Token refresh, 7, 8). Same-origin `/v1`, Bearer token
 * from storage, `X-Organisation` for a panel shown for one organisation. A 401 triggers ONE shared refresh that concurrent requests wait for; the request is
 * then retried once. If another tab already rotated the refresh token, its new tokens (now in
 * storage) are used instead of failing. On a real refresh failure both tokens are cleared and the
 * page reloads. Failures throw ApiError whose `message` is a server message key, `offline` (no network: the
 * browser says it is offline, issue 20) or `request_failed`.
 * Every call carries the panel's active language as `Accept-Language` (issue 29): the server writes the
 * e-mails a call causes (a gift to a new address, ...) in it.
 */
import { storage, clearSession } from './storage';
import { embedMode, organisationSlug } from './host-bridge';

export const API_BASE = '/v1';
const TIMEOUT_MS = 20_000;

/** An API failure: `message` is a translatable key; `status` 0 for network/timeout/parse failures. */
export class ApiError extends Error {
  // Declared, not class fields: an es2020 build would down-level fields with a helper on the first screen.
  declare readonly status: number;
  declare readonly body: Record<string, unknown>;
  constructor(message: string, status: number, body: Record<string, unknown> = {}) {
    super(message);
    Object.assign(this, { status, body });
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  responseType?: 'json' | 'text' | 'blob';
}

/** Hooks the app can replace (tests, page reload). */
export const clientHooks = {
  reload: () => window.location.reload(),
  fetch: (...a: Parameters<typeof fetch>) => fetch(...a),
};

let refreshing: Promise<boolean> | null = null;

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
    try {
      const res = await clientHooks.fetch(`${API_BASE}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(used ? { refreshToken: used } : {}),
      });
      if (res.ok) {
        const tokens = (await res.json()) as { accessToken: string; refreshToken: string };
        storage.set('accessToken', tokens.accessToken);
        storage.set('refreshToken', tokens.refreshToken);
        return true;
      }
    } catch {
      /* network: fall through */
    }
    // Another tab may have rotated the token meanwhile: use its result.
    const now = storage.get('refreshToken');
    return Boolean(now && now !== used && storage.get('accessToken'));
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  // Encoded: a slug is unchanged, anything else still reaches the API (404) instead of failing in fetch.
  if (organisationSlug) headers['x-organisation'] = encodeURIComponent(organisationSlug);
  if (token) headers.authorization = `Bearer ${token}`;
  // The panel's language (lib/i18n sets <html lang> from the path), not the browser's.
  const lang = document.documentElement.lang;
  if (lang === 'en' || lang === 'es') headers['accept-language'] = lang;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
  try {
    return await clientHooks.fetch(`${API_BASE}${path}`, {
      method: opts.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: ctrl.signal,
    });
  } catch {
    throw new ApiError(isOffline() ? 'offline' : 'request_failed', 0);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls the API; resolves with the parsed body, throws ApiError. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const token = storage.get('accessToken');
  let res = await send(path, opts, token);
  if (res.status === 401 && token) {
    // A newer token may already be stored by a refresh that finished while we were waiting.
    const latest = storage.get('accessToken');
    const ok = latest && latest !== token ? true : await refreshTokens();
    if (!ok) {
      clearSession();
      clientHooks.reload();
      throw new ApiError('api.unauthorized', 401);
    }
    res = await send(path, opts, storage.get('accessToken'));
  }
  if (!res.ok) {
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    throw new ApiError(typeof body.message === 'string' ? body.message : 'request_failed', res.status, body);
  }
  if (res.status === 204) return undefined as T;
  try {
    if (opts.responseType === 'text') return (await res.text()) as T;
    if (opts.responseType === 'blob') return (await res.blob()) as T;
    return (await res.json()) as T;
  } catch {
    throw new ApiError('request_failed', 0);
  }
}

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
