/**
 * Browser storage of spec section 3: access token, refresh token, session id, the e-mail during
 * sign-in and the theme mode. All under localStorage with a `tp.` prefix; storage failures
 * (private mode, blocked third-party storage) degrade to memory. Embedded on a host page the tokens
 * stay in this document's memory only: the HttpOnly refresh cookie keeps the session across reloads
 * (decision 012), and no script can read the refresh token.
 */
import { embedMode } from './host-bridge';
import { clearOfflineData } from './offline-data';

export const STORAGE_KEYS = {
  accessToken: 'tp.accessToken',
  refreshToken: 'tp.refreshToken',
  sessionId: 'tp.sessionId',
  email: 'tp.email',
  theme: 'tp.theme',
  userTicketId: 'tp.userTicketId',
  /** The swap being paid at the checkout (features/swap/use-checkout-return). */
  swapIdentifier: 'tp.swapIdentifier',
  /** When (epoch ms) "Resend code" works again; set with the session id (issue 13). */
  codeResendAt: 'tp.codeResendAt',
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;

const memory = new Map<string, string>();
/** Embedded: the access token lives in memory only, and the refresh token is not kept (the cookie holds it). */
const memoryOnly: readonly StorageKey[] = embedMode === 'standalone' ? [] : ['accessToken'];
const notKept: readonly StorageKey[] = embedMode === 'standalone' ? [] : ['refreshToken'];

export const storage = {
  get(key: StorageKey): string | null {
    if (notKept.includes(key)) return null;
    if (memoryOnly.includes(key)) return memory.get(key) ?? null;
    try {
      return localStorage.getItem(STORAGE_KEYS[key]);
    } catch {
      return memory.get(key) ?? null;
    }
  },
  set(key: StorageKey, value: string): void {
    if (notKept.includes(key)) return;
    if (memoryOnly.includes(key)) return void memory.set(key, value);
    try {
      localStorage.setItem(STORAGE_KEYS[key], value);
    } catch {
      memory.set(key, value);
    }
  },
  remove(key: StorageKey): void {
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
  ] as const)
    storage.remove(k);
  clearOfflineData();
}
