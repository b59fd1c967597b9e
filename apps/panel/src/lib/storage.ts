/**
 * Browser storage of spec section 3: access token, refresh token, session id, the e-mail during
 * sign-in and the theme mode. All under localStorage with a `tp.` prefix; storage failures
 * (private mode, blocked third-party storage) degrade to memory.
 */
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
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;

const memory = new Map<string, string>();

export const storage = {
  get(key: StorageKey): string | null {
    try {
      return localStorage.getItem(STORAGE_KEYS[key]);
    } catch {
      return memory.get(key) ?? null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      localStorage.setItem(STORAGE_KEYS[key], value);
    } catch {
      memory.set(key, value);
    }
  },
  remove(key: StorageKey): void {
    try {
      localStorage.removeItem(STORAGE_KEYS[key]);
    } catch {
      memory.delete(key);
    }
  },
};

/** Clears everything a sign-in leaves behind (logout, failed refresh), the offline pass and cached personal data included. */
export function clearSession(): void {
  for (const k of ['accessToken', 'refreshToken', 'sessionId', 'email', 'userTicketId', 'swapIdentifier'] as const)
    storage.remove(k);
  clearOfflineData();
}
