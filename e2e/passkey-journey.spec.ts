/**
 * Passkeys end to end (issue 47, decision 049), as a person meets them in Chromium with its virtual authenticator (a
 * phone's screen lock, answering at once): alice signs in with the e-mail code and takes the offer "Sign in faster
 * next time with a passkey"; she logs out, and on LOGIN "Use a passkey" signs her in with no e-mail at all, and so, the
 * next time, does the passkey the e-mail field’s autofill offers (conditional UI); the assertion replayed is refused. By the time
 * she gifts a ticket her proof of presence is older than this server's window (STEP_UP_MAX_AGE_SECONDS=5): "Confirm
 * it's you" offers her passkey first, and the gift goes on where it was (bob gets his mail). Bob's passkey signs him in
 * in the panel embedded on an organiser's page of another origin. Then LOGIN in Spanish at 360 px, light and dark.
 *
 * A passkey's relying party must be a domain name, so this spec's own server says it is at http://localhost:PORT
 * (PUBLIC_URL; it still listens on 127.0.0.1) and the panel is opened there.
 */
import { expect, test, type Page } from './fixtures';
import { modalFrame } from './embed-pass';
import { decoded, mailCount, mailsAfter, waitForMail } from './mail';
import {
  addVirtualAuthenticator,
  expectAccessible,
  inEachTheme,
  ownServer,
  signInViaPanel,
  takePasskeyOffer,
  watchNetwork,
} from './support';

test.describe.configure({ mode: 'serial' });

/** Seconds a proof of presence lasts on this spec's server. */
const MAX_AGE_SECONDS = 5;
const server = ownServer(
  'passkey-journey',
  { STEP_UP_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS), OTP_RESEND_SECONDS: '0' },
  'localhost',
);

/** What the init script below leaves on the page. */
type Autofill = Window & { conditionalRequests?: number; pickPasskey?: () => void };

/**
 * Init script: a conditional request (`mediation: 'conditional'`, the autofill's offer) is counted and waits for the
 * person to pick the passkey in the field's autofill, which headless Chromium does not draw: `pickPasskey()` is that
 * pick, answered by the virtual authenticator as the browser would. Other requests go to the browser as they are.
 */
function personPicksFromAutofill() {
  const w = window as Autofill;
  const get = navigator.credentials.get.bind(navigator.credentials);
  navigator.credentials.get = (options?: CredentialRequestOptions) => {
    if (options?.mediation !== 'conditional') return get(options);
    w.conditionalRequests = (w.conditionalRequests ?? 0) + 1;
    return new Promise((resolve, reject) => {
      w.pickPasskey = () => void get({ publicKey: options.publicKey, signal: options.signal }).then(resolve, reject);
      options.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    });
  };
}

const conditionalRequests = (page: Page) => page.evaluate(() => (window as Autofill).conditionalRequests ?? 0);

/** Logs out from the hub's menu, back to LOGIN. */
async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
}

/** Opens the gift screen of alice's ticket on `card` and gets to "Gift ticket" to bob's e-mail, terms ticked. */
async function giftToBob(page: Page, card: RegExp) {
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=MY_TICKET`);
  await page.getByRole('button', { name: card }).first().click();
  await page.getByRole('button', { name: 'Gift', exact: true }).click();
  await page.getByRole('textbox', { name: "Recipient's email" }).fill('bob@example.com');
  await page.getByRole('button', { name: 'Confirm recipient' }).click();
  await page.getByRole('checkbox', { name: /permanently transferred/ }).check();
  return page.getByRole('button', { name: 'Gift ticket' });
}

test('a passkey taken after the e-mail code signs alice in without a code, and confirms a gift', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  watchNetwork(context);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  await context.addInitScript(personPicksFromAutofill);
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, 'alice@example.com');

  // The offer after the code: she adds a passkey from it.
  const offer = page.getByRole('dialog', { name: 'Sign in faster next time with a passkey' });
  await offer.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added')).toBeVisible();
  await expect(offer).toHaveCount(0);
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

  // Log out from the hub, then back in with the passkey: no e-mail is sent.
  await logOut(page);
  const mailsBefore = mailCount();
  const assertions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/v1/auth/passkeys/sign-in')) assertions.push(r.postData() ?? '');
  });
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  expect(mailCount()).toBe(mailsBefore);
  // The browser's assertion sent again, as one who copied it off the wire would: refused.
  expect(assertions).toHaveLength(1);
  const replay = await page.request.post(`${server().baseUrl}/v1/auth/passkeys/sign-in`, {
    data: JSON.parse(assertions[0]) as object,
    headers: { origin: server().baseUrl },
  });
  expect([replay.status(), await replay.json()]).toEqual([400, { message: 'api.auth.passkey_failed' }]);

  // Out again: focusing the e-mail field offers her passkey in its autofill (conditional UI), once however often
  // it is focused; she picks it and is in, still with no e-mail.
  await logOut(page);
  const offers = await conditionalRequests(page);
  const field = page.getByRole('textbox', { name: 'Email' });
  await field.focus();
  await expect.poll(() => conditionalRequests(page)).toBe(offers + 1);
  await field.blur();
  await field.focus();
  await page.evaluate(() => (window as Autofill).pickPasskey?.());
  await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  expect(await conditionalRequests(page)).toBe(offers + 1);
  expect(mailCount()).toBe(mailsBefore);

  // A gift once the sign-in's proof is older than the window: the passkey confirms it.
  const gift = await giftToBob(page, /^Aotearoa Sound, General Admission/);
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  const before = mailCount();
  await gift.click();
  const sheet = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(sheet).toContainText("To gift a ticket, confirm it's you with your passkey.");
  await sheet.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Ticket gifted!' })).toBeVisible();
  await expect(sheet).toHaveCount(0);
  await waitForMail('bob@example.com', { after: before, match: (r) => /^Subject: .*gifted you a ticket/im.test(r) });
  // No step-up code was e-mailed: the passkey was the proof.
  expect(mailsAfter(before).filter((raw) => /is your code to/i.test(decoded(raw)))).toEqual([]);
});

test("in the embed on an organiser's site (another origin), the passkey signs in too", async ({ page, context }) => {
  test.setTimeout(150_000);
  watchNetwork(context);
  await addVirtualAuthenticator(context, page);
  // The passkey is made on the panel's own page, after a code sign-in (the offer).
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, 'bob@example.com');
  await takePasskeyOffer(page);

  // The demo organiser page at 127.0.0.1 frames the panel from localhost: the loader's frame may use passkeys.
  await page.goto(server().baseUrl.replace('localhost', '127.0.0.1') + '/');
  await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
  const frame = modalFrame(page);
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  const mailsBefore = mailCount();
  await frame.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(frame.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  expect(mailCount()).toBe(mailsBefore);
});

test('LOGIN offers the passkey in Spanish at 360 px, light and dark', async ({ page, context }) => {
  test.setTimeout(150_000);
  watchNetwork(context);
  await page.setViewportSize({ width: 360, height: 780 });
  await addVirtualAuthenticator(context, page);
  await page.goto(`${server().baseUrl}/es/?PANEL_TAB=LOGIN`);
  await expect(page.getByRole('button', { name: 'Usar una llave de acceso' })).toBeVisible();
  await inEachTheme(page, (theme) => page.screenshot({ path: `test-results/passkeys/passkey-login-es-${theme}.png` }));
  await expectAccessible(page, 'login with a passkey, es');
});
