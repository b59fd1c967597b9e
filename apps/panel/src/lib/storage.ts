/**
 * Browser storage of spec section 3: access token, refresh token, session id, the e-mail during
 * sign-in and the theme mode. All under localStorage with a `tp.` prefix; storage failures
 * (private mode, blocked third-party storage) degrade to memory. Embedded on a host page the tokens
 * stay in this document's memory only: the HttpOnly refresh cookie keeps the session across reloads
 * (decision 012), and no script can read the refresh token.
 * Embedded, the holder's theme and language (issue 23) are kept in a cookie of the panel origin,
 * `Partitioned` (CHIPS) like the refresh cookie: a browser that gives a third-party frame no localStorage (Chrome
 * blocking third-party cookies answers it with a SecurityError) still keeps a partitioned cookie for the
 * organiser's site, so the choice survives a reload of the host page. One cookie per organisation
 * (`tp.theme.<slug>`, `tp.lang.<slug>`); the document's inline theme script reads the same cookie.
 */
import { embedMode, organisationSlug } from './host-bridge';
import { clearOfflineData } from './offline-data';

export const STORAGE_KEYS = {
  accessToken: 'tp.accessToken',
  refreshToken: 'tp.refreshToken',
  sessionId: 'tp.sessionId',
  email: 'tp.email',
  theme: 'tp.theme',
  /** The language the holder chose in an embedded panel (issue 23; standalone, the path says it). */
  lang: 'tp.lang',
  userTicketId: 'tp.userTicketId',
  /** The swap being paid at the checkout (features/swap/use-checkout-return). */
  swapIdentifier: 'tp.swapIdentifier',
  /** When (epoch ms) "Resend code" works again; set with the session id (issue 13). */
  codeResendAt: 'tp.codeResendAt',
  /** The screen a signed-out holder's link asked for, taken after sign-in (lib/return-route.ts, issue 40). */
  returnTo: 'tp.returnTo',
  /** The offer of a passkey after a sign-in (features/settings/components/passkey-offer): its session, "Not now". */
  passkeyOffer: 'tp.passkeyOffer',
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;

/** Embedded: kept in a partitioned cookie per organisation (see above). */
const inCookie: readonly StorageKey[] = embedMode === 'standalone' ? [] : ['theme', 'lang'];
const cookieName = (key: StorageKey) => `${STORAGE_KEYS[key]}.${organisationSlug ?? ''}`;
/** A year, in seconds: a preference, not a session. */
const COOKIE_MAX_AGE = 31_536_000;
function readCookie(name: string): string | null {
  for (const part of document.cookie.split('; ')) {
    const at = part.indexOf('=');
    if (part.slice(0, at) === name) return decodeURIComponent(part.slice(at + 1));
  }
  return null;
}
function writeCookie(name: string, value: string, maxAge: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=None; Secure; Partitioned`;
}

const memory = new Map<string, string>();
/** Embedded: the access token lives in memory only, and the refresh token is not kept (the cookie holds it). */
const memoryOnly: readonly StorageKey[] = embedMode === 'standalone' ? [] : ['accessToken'];
const notKept: readonly StorageKey[] = embedMode === 'standalone' ? [] : ['refreshToken'];

export const storage = {
  get(key: StorageKey): string | null {
    if (notKept.includes(key)) return null;
    if (inCookie.includes(key)) return readCookie(cookieName(key)) ?? memory.get(key) ?? null;
    if (memoryOnly.includes(key)) return memory.get(key) ?? null;
    try {
      return localStorage.getItem(STORAGE_KEYS[key]);
    } catch {
      return memory.get(key) ?? null;
    }
  },
  set(key: StorageKey, value: string): void {
    if (notKept.includes(key)) return;
    if (inCookie.includes(key)) {
      memory.set(key, value); // where no cookie is kept either, at least for this document
      return writeCookie(cookieName(key), value, COOKIE_MAX_AGE);
    }
    if (memoryOnly.includes(key)) return void memory.set(key, value);
    try {
      localStorage.setItem(STORAGE_KEYS[key], value);
    } catch {
      memory.set(key, value);
    }
  },
  remove(key: StorageKey): void {
    if (inCookie.includes(key)) {
      memory.delete(key);
      return writeCookie(cookieName(key), '', 0);
    }
    if (memoryOnly.includes(key)) return void memory.delete(key);
    try {
      localStorage.removeItem(STORAGE_KEYS[key]);
    } catch {
      memory.delete(key);
    }
  },
};

/** Clears everything a sign-in leaves behind (logout, failed refresh), the offline pass and cached personal data included. */
export function clearSession(): void {
  for (const k of [
    'accessToken',
    'refreshToken',
    'sessionId',
    'email',
    'userTicketId',
    'swapIdentifier',
    'codeResendAt',
    'returnTo',
  ] as const)
    storage.remove(k);
  clearOfflineData();
}
