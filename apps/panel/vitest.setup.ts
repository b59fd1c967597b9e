/**
 * Set-up of the panel's unit tests (vitest.config.ts `setupFiles`), run in each test file's jsdom context.
 * The `vmThreads` pool runs every file in a jsdom window of its own, whose `crypto` (jsdom's) has
 * `getRandomValues` and `randomUUID` but no `subtle`; the browsers the panel supports have it (a secure
 * context), and the offline door's pass check (`@noble/ed25519`, packages/contract pass-code.ts) hashes with it.
 * The window gets Node's Web Crypto, the same API, when `subtle` is missing.
 */
import { webcrypto } from 'node:crypto';

if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true, writable: true });
}
