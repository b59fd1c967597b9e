/**
 * Names of what the panel keeps on the device for offline use (decision 010, issue 10), and the one
 * function that removes it all at logout or when the sign-in ends: the offline pass (device key and
 * certificate, IndexedDB) and the service worker's cache of personal API answers (Cache Storage).
 * The app shell's precache holds no personal data and stays.
 */

/** IndexedDB database of the offline pass (features/qr/pass). */
export const PASS_DB = 'tp-pass';
/** Cache Storage name of the service worker's cached API answers (vite.config.ts runtimeCaching). */
export const PERSONAL_CACHE = 'tp-personal';

/** Deletes the offline pass and the cached personal data; never throws (storage may be unavailable). */
export function clearOfflineData(): void {
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
