/**
 * Passkeys in the organiser's console (issue 47, decisions 048 and 049), in Chromium with its virtual authenticator
 * (a phone's screen lock, answering at once): an owner takes a passkey in the panel after an e-mail-code sign-in, then
 * signs in to /console with it, no e-mail sent. Once that sign-in is older than this server's step-up window
 * (STEP_UP_MAX_AGE_SECONDS=5), "Create API key" opens the console's "Confirm it's you" sheet, the passkey first; the
 * key is shown after it. An owner without a passkey confirms with the e-mailed code instead (in Spanish). The console
 * sign-in with its passkey button and the sheet at 360 px and 1280 px, light and dark, in test-results/console-passkeys/.
 *
 * A passkey's relying party must be a domain name, so this spec's own server says it is at http://localhost:PORT
 * (PUBLIC_URL; it still listens on 127.0.0.1) and the panel and console are opened there.
 */
import { expect, test, type Page } from './fixtures';
import { mailCount, waitForCode } from './mail';
import { createOrganisation, signInConsole } from './console-steps';
import {
  addVirtualAuthenticator,
  apiSignIn,
  expectAccessible,
  inEachTheme,
  ownServer,
  signInViaPanel,
  takePasskeyOffer,
  watchNetwork,
} from './support';

test.describe.configure({ mode: 'serial' });

const ADMIN_KEY = 'e2e-console-passkeys-admin-key';
/** Seconds a proof of presence lasts on this spec's server. */
const MAX_AGE_SECONDS = 5;
const server = ownServer(
  'console-passkeys',
  { ADMIN_KEY, OTP_RESEND_SECONDS: '0', STEP_UP_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) },
  'localhost',
);
const tag = Date.now().toString(36);

/** An organisation whose owner `email` has a passkey, made in the panel after an e-mail-code sign-in (the offer). */
async function ownerWithPasskey(page: Page, email: string) {
  await createOrganisation(`passkeys-${tag}`, email, 'Harbour Passkeys', server().baseUrl, ADMIN_KEY);
  await apiSignIn(email, undefined, server().baseUrl); // the account's names, so the panel goes straight to QR
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, email);
  await takePasskeyOffer(page);
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

  // A new API key once the sign-in's proof is older than the window: the sheet, the passkey first.
  await page.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const sheet = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(sheet).toContainText("To create an API key, confirm it's you with your passkey.");
  await expect(sheet.getByRole('button', { name: 'Use your passkey' })).toBeEnabled();
  await expectAccessible(page, 'console step-up sheet, passkey');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 720 });
    await inEachTheme(page, (theme) =>
      page.screenshot({ path: `test-results/console-passkeys/sheet-passkey-en-${theme}-${width}.png` }),
    );
  }
  await sheet.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByTestId('shown-once')).toHaveText(/^tpk_/);
  expect(mailCount()).toBe(before); // no step-up code was mailed: the passkey was the proof
});

test('an owner without a passkey confirms a new API key with the e-mailed code (Spanish)', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  watchNetwork(context);
  const owner = `owner-code-${tag}@console.example`;
  await createOrganisation(`code-${tag}`, owner, 'Harbour Codes', server().baseUrl, ADMIN_KEY);
  await page.setViewportSize({ width: 360, height: 780 });
  await signInConsole(page, owner, 'es', server().baseUrl);
  await page.getByRole('navigation').getByRole('link', { name: 'Claves' }).click();
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  const before = mailCount();
  await page.getByRole('button', { name: 'Crear clave de API' }).click();
  const sheet = page.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(sheet).toContainText(`Para crear una clave de API, escribe el código que hemos enviado a ${owner}.`);
  const code = await waitForCode(owner, before);
  await inEachTheme(page, (theme) =>
    page.screenshot({ path: `test-results/console-passkeys/sheet-code-es-${theme}-360.png` }),
  );
  await expectAccessible(page, 'console step-up sheet, code, es');
  await sheet.getByLabel('Código').fill(code);
  await sheet.getByRole('button', { name: 'Confirmar' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByTestId('shown-once')).toHaveText(/^tpk_/);
});

test('Cancel leaves the key uncreated and says why', async ({ page, context }) => {
  test.setTimeout(120_000);
  watchNetwork(context);
  const owner = `owner-cancel-${tag}@console.example`;
  await createOrganisation(`cancel-${tag}`, owner, 'Harbour Cancel', server().baseUrl, ADMIN_KEY);
  await signInConsole(page, owner, 'en', server().baseUrl);
  await page.getByRole('navigation').getByRole('link', { name: 'Keys' }).click();
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const sheet = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(sheet).toContainText('enter the code we sent to');
  await sheet.getByRole('button', { name: 'Cancel' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveText("Confirm it's you to go on.");
  await expect(page.getByTestId('shown-once')).toHaveCount(0);
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
