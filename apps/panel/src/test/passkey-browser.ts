/**
 * The browser's passkey ceremony in panel and console tests (lib/webauthn.ts): a test says what the browser answers
 * to `getPasskey` (`browser.answer`); null: no passkeys in this browser (`passkeysSupported()` false). A test file
 * installs it with
 * `vi.mock(path, async (original) => (await import(this module)).stubPasskeyBrowser(await original()))` (imported
 * inside the factory: vi.mock is hoisted above the imports).
 */
import type * as Webauthn from '../lib/webauthn';

/** What the stubbed browser answers; reset it in each test's set-up. */
export const browser = { answer: null as null | (() => Promise<unknown>) };

/** lib/webauthn.ts with the browser's half answered by `browser`. */
export const stubPasskeyBrowser = (original: typeof Webauthn): typeof Webauthn => ({
  ...original,
  passkeysSupported: () => browser.answer !== null,
  getPasskey: () => browser.answer!() as ReturnType<typeof Webauthn.getPasskey>,
});
