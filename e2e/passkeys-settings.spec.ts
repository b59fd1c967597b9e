/**
 * Passkeys in Settings (issue 47, decision 049), as a person meets them in Chromium with its virtual authenticator
 * (a phone's screen lock, answering at once): alice signs in with the e-mail code, is offered a passkey once and says
 * "Not now"; in Settings she adds one (the browser makes it, the server keeps its public half), sees it listed as
 * never used, and removes it after confirming. The section at 360 px, light and dark, English and Spanish.
 *
 * A passkey's relying party must be a domain name, so this spec's own server says it is at http://localhost:PORT
 * (PUBLIC_URL; it still listens on 127.0.0.1) and the panel is opened there.
 */
import { expect, test, type Page } from './fixtures';
import {
  addVirtualAuthenticator,
  expectAccessible,
  inEachTheme,
  ownServer,
  signInViaPanel,
  watchNetwork,
} from './support';

test.describe.configure({ mode: 'serial' });

const server = ownServer('passkeys', { OTP_RESEND_SECONDS: '0' }, 'localhost');

/** Takes the section's picture in the light and the dark theme, as `passkeys-<lang>-<theme>-360.png`. */
async function shoot(page: Page, name: string) {
  const section = page.locator('section', { has: page.getByRole('heading', { name: name, exact: true }) });
  await section.scrollIntoViewIfNeeded();
  const lang = name === 'Passkeys' ? 'en' : 'es';
  await inEachTheme(page, (theme) =>
    section.screenshot({ path: `test-results/passkeys/passkeys-${lang}-${theme}-360.png` }),
  );
}

test('a passkey is offered after the e-mail code, added in Settings, listed, and removed', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  watchNetwork(context);
  await page.setViewportSize({ width: 360, height: 780 });
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, 'alice@example.com');

  // Once after the sign-in: the offer; "Not now" closes it, and a reload of this session does not ask again.
  const offer = page.getByRole('dialog', { name: 'Sign in faster next time with a passkey' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Not now' }).click();
  await expect(offer).toHaveCount(0);

  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=SETTINGS`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await expect(offer).toHaveCount(0);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added')).toBeVisible();
  const item = section.getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Never used');
  await expect(item).toContainText(/Added /);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await expect(page.getByText('Passkey added')).toHaveCount(0, { timeout: 10_000 });
  await shoot(page, 'Passkeys');
  await expectAccessible(page, 'settings passkeys en dark');

  await page.goto(`${server().baseUrl}/es/?PANEL_TAB=SETTINGS`);
  const seccion = page.getByRole('region', { name: 'Llaves de acceso' });
  await expect(seccion.getByRole('listitem')).toContainText('Nunca usada');
  await expect(seccion.getByRole('button', { name: 'Añadir una llave de acceso' })).toBeVisible();
  await shoot(page, 'Llaves de acceso');

  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=SETTINGS`);
  const name = (await section.getByRole('listitem').locator('p').first().textContent())!;
  await section.getByRole('button', { name: `Remove ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await expect(confirm).toContainText(`${name} will no longer sign you in.`);
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Passkey removed')).toBeVisible();
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await expect(section.getByRole('listitem')).toHaveCount(0);
});
