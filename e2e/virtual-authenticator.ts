/**
 * Chromium's virtual authenticator (DevTools `WebAuthn`), shared by the passkey specs (through e2e/support.ts) and the
 * time-to-QR bench (bench/time-to-qr.ts), which both stand in for a phone's screen lock with it.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/**
 * Gives `page` Chromium's virtual authenticator (DevTools `WebAuthn`): a platform authenticator (internal, CTAP2)
 * that keeps discoverable passkeys, verifies the user and answers at once, as a phone's screen lock would. The page
 * must be on a domain name (`ownServer(…, 'localhost')`): an IP address cannot be a passkey's relying party.
 * @returns the DevTools session and the authenticator's id (for `WebAuthn.getCredentials`, `removeVirtualAuthenticator`)
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
