/**
 * Names of what the panel keeps on the device for offline use (decision 010, issue 10), and the one
 * function that removes it all at logout or when the sign-in ends: the offline pass (device key and
 * certificate, IndexedDB or memory), the persisted ticket lists (localStorage, issue 20) and the service
 * worker's cache of personal API answers (Cache Storage).
 * The app shell's precache holds no personal data and stays.
 */

/** IndexedDB database of the offline pass (features/qr/pass). */
export const PASS_DB = 'tp-pass';
/** Cache Storage name of the service worker's cached API answers (vite.config.ts runtimeCaching). */
export const PERSONAL_CACHE = 'tp-personal';

/** localStorage key of the persisted ticket queries (lib/query-persistence.ts). */
export const QUERY_CACHE_KEY = 'tp.queryCache';

/**
 * Where the offline pass is kept when the browser gives this document no IndexedDB (an embed whose
 * third-party storage is blocked, issue 20): this document's memory, for as long as the panel is open.
 * Typed loosely here: its shape belongs to features/qr/pass/device-pass.ts.
 */
export const memoryPass: { current: unknown } = { current: null };

/** Deletes the offline pass and the cached personal data; never throws (storage may be unavailable). */
export function clearOfflineData(): void {
  memoryPass.current = null;
  try {
    localStorage.removeItem(QUERY_CACHE_KEY);
  } catch {
    /* no localStorage here */
  }
  try {
    indexedDB.deleteDatabase(PASS_DB);
  } catch {
    /* no IndexedDB here */
  }
  try {
    void caches.delete(PERSONAL_CACHE).catch(() => undefined);
  } catch {
    /* no Cache Storage (insecure context or old browser) */
  }
}
