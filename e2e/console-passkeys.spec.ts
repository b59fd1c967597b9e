/**
 * Passkeys in the organiser's console (issue 47, decisions 048 and 049), in Chromium with its virtual authenticator
 * (a phone's screen lock, answering at once): an owner takes a passkey in the panel after an e-mail-code sign-in, then
 * signs in to /console with it, no e-mail sent. The console sign-in with its passkey button at 360 px and 1280 px,
 * light and dark, in test-results/console-passkeys/.
 *
 * A passkey's relying party must be a domain name, so this spec's own server says it is at http://localhost:PORT
 * (PUBLIC_URL; it still listens on 127.0.0.1) and the panel and console are opened there.
 */
import { expect, test, type Page } from './fixtures';
import { mailCount } from './mail';
import { createOrganisation } from './console-steps';
import {
  addVirtualAuthenticator,
  apiSignIn,
  expectAccessible,
  inEachTheme,
  ownServer,
  signInViaPanel,
  watchNetwork,
} from './support';

test.describe.configure({ mode: 'serial' });

const ADMIN_KEY = 'e2e-console-passkeys-admin-key';
const server = ownServer('console-passkeys', { ADMIN_KEY, OTP_RESEND_SECONDS: '0' }, 'localhost');
const tag = Date.now().toString(36);

/** An organisation whose owner `email` has a passkey, made in the panel after an e-mail-code sign-in (the offer). */
async function ownerWithPasskey(page: Page, email: string) {
  await createOrganisation(`passkeys-${tag}`, email, 'Harbour Passkeys', server().baseUrl, ADMIN_KEY);
  await apiSignIn(email, undefined, server().baseUrl); // the account's names, so the panel goes straight to QR
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, email);
  await page
    .getByRole('dialog', { name: 'Sign in faster next time with a passkey' })
    .getByRole('button', { name: 'Add a passkey' })
    .click();
  await expect(page.getByText('Passkey added')).toBeVisible();
}

test('an owner signs in to the console with the passkey made in the panel, no e-mail sent', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  watchNetwork(context);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  const owner = `owner-${tag}@console.example`;
  await ownerWithPasskey(page, owner);
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

  await context.clearCookies(); // the panel's sign-in is not the console's: the console starts signed out
  await page.goto(`${server().baseUrl}/console?lang=en`);
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  const before = mailCount();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('navigation')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  expect(mailCount()).toBe(before);
});

test('the console sign-in offers the passkey at 360 px and 1280 px, light and dark, in both languages', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  watchNetwork(context);
  await addVirtualAuthenticator(context, page);
  for (const [lang, name] of [
    ['en', 'Use a passkey'],
    ['es', 'Usar una llave de acceso'],
  ] as const) {
    await page.goto(`${server().baseUrl}/console?lang=${lang}`);
    await expect(page.getByRole('button', { name })).toBeVisible();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 720 });
      await inEachTheme(page, (theme) =>
        page.screenshot({ path: `test-results/console-passkeys/sign-in-${lang}-${theme}-${width}.png` }),
      );
    }
    await expectAccessible(page, `console sign-in with a passkey, ${lang}`);
  }
});
