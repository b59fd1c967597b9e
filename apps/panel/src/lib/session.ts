/**
 * Sign-in state (spec section 4: login state derives from the presence of the access token).
 * A tiny external store over storage so components re-render on sign-in, sign-out and changes
 * made by other tabs.
 */
import { useSyncExternalStore } from 'react';
import { storage, clearSession } from './storage';

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
if (typeof window !== 'undefined') window.addEventListener('storage', emit);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

/** True while an access token is stored. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => Boolean(storage.get('accessToken')),
    () => false,
  );
}

/** Stores the tokens of a completed sign-in. */
export function setTokens(tokens: { accessToken: string; refreshToken: string }): void {
  storage.set('accessToken', tokens.accessToken);
  storage.set('refreshToken', tokens.refreshToken);
  emit();
}

/** Removes every sign-in trace (spec section 2 Logout: local cleanup). */
export function endSession(): void {
  clearSession();
  emit();
}

/** Re-renders what depends on the sign-in state after a change made elsewhere (another frame's session). */
export const sessionChanged = emit;
/** Calls `l` on every sign-in, sign-out or session change; returns the unsubscribe function. */
export const onSessionChange = subscribe;
