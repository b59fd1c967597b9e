/**
 * Step-up by e-mail (issue 47), as a person meets it, e-mail → panel: alice signs in through the panel, chooses a
 * ticket to gift, and by the time she presses "Gift ticket" her sign-in is older than the step-up window (this
 * spec's own server has STEP_UP_MAX_AGE_SECONDS=5). The panel opens "Confirm it's you" over the gift screen, the
 * code arrives in her inbox in its own e-mail naming the gift (not a sign-in code), she types it, and the gift goes
 * on where it was: bob gets his "gifted you a ticket" mail. Then the sheet in Spanish, light and dark, at 360 px.
 */
import { expect, test, type Page } from './fixtures';
import { decoded, mailCount, waitForMail } from './mail';
import { expectAccessible, inEachTheme, ownServer, signInViaPanel, watchNetwork } from './support';

test.describe.configure({ mode: 'serial' });

/** Seconds a proof of presence lasts on this spec's server. */
const MAX_AGE_SECONDS = 5;
const server = ownServer('step-up', { STEP_UP_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS), OTP_RESEND_SECONDS: '0' });

/** Signs `email` in through the panel's LOGIN and code screens of this spec's server. */
async function signIn(page: Page, email: string, lang: 'en' | 'es') {
  await page.goto(`${server().baseUrl}/${lang}/?PANEL_TAB=LOGIN`);
  await signInViaPanel(page, email);
}

/** Opens the gift screen of alice's ticket on `card` and gets to "Gift ticket" to bob's e-mail, terms ticked. */
async function giftToBob(page: Page, lang: 'en' | 'es', card: RegExp) {
  const es = lang === 'es';
  await page.goto(`${server().baseUrl}/${lang}/?PANEL_TAB=MY_TICKET`);
  await page.getByRole('button', { name: card }).first().click();
  await page.getByRole('button', { name: es ? 'Regalar' : 'Gift', exact: true }).click();
  await page
    .getByRole('textbox', { name: es ? 'Correo del destinatario' : "Recipient's email" })
    .fill('bob@example.com');
  await page.getByRole('button', { name: es ? 'Confirmar destinatario' : 'Confirm recipient' }).click();
  await page.getByRole('checkbox', { name: es ? /transfiere/ : /permanently transferred/ }).check();
  return page.getByRole('button', { name: es ? 'Regalar entrada' : 'Gift ticket' });
}

/** The step-up code e-mailed to alice after `before` mails, from its subject "<code> is your code to <action>". */
async function stepUpCode(before: number, subject: RegExp) {
  const raw = await waitForMail('alice@example.com', { after: before, match: (r) => subject.test(decoded(r)) });
  return /^Subject: (\d{6}) /im.exec(decoded(raw))![1];
}

test('a gift after the sign-in aged asks "Confirm it\'s you"; the e-mailed code lets the gift go on', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'alice@example.com', 'en');
  const gift = await giftToBob(page, 'en', /^Aotearoa Sound, General Admission/);
  // The proof of the sign-in grows older than the server's window before the gift is asked for.
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  const before = mailCount();
  await gift.click();
  const sheet = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(sheet).toContainText('To gift a ticket, enter the code we sent to alice@example.com.');
  const code = await stepUpCode(before, /^Subject: \d{6} is your code to gift a ticket$/im);
  await sheet.getByRole('textbox', { name: 'Code' }).fill(code);
  await sheet.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Ticket gifted!' })).toBeVisible();
  await expect(sheet).toHaveCount(0);
  await waitForMail('bob@example.com', { after: before, match: (r) => /^Subject: .*gifted you a ticket/im.test(r) });
});

test('the sheet in Spanish at 360 px, light and dark; Cancelar leaves the gift undone', async ({ page, context }) => {
  test.setTimeout(120_000);
  watchNetwork(context);
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, 'alice@example.com', 'es');
  const gift = await giftToBob(page, 'es', /^Laneway Sessions, VIP/);
  await page.waitForTimeout((MAX_AGE_SECONDS + 1) * 1000);
  const before = mailCount();
  await gift.click();
  const sheet = page.getByRole('dialog', { name: 'Confirma que eres tú' });
  await expect(sheet).toContainText(
    'Para regalar una entrada, escribe el código que hemos enviado a alice@example.com.',
  );
  // Its own e-mail, in Spanish, naming the gift (the subject is encoded: its text is read from the body).
  await waitForMail('alice@example.com', {
    after: before,
    match: (r) => decoded(r).includes('Has pedido regalar una entrada en tu cuenta'),
  });
  await inEachTheme(page, (theme) => page.screenshot({ path: `test-results/step-up/sheet-es-${theme}-360.png` }));
  await expectAccessible(page, 'step-up sheet es dark');
  await sheet.getByRole('button', { name: 'Cancelar' }).click();
  await expect(sheet).toHaveCount(0);
  // The gift screen is still there, its gift not made.
  await expect(gift).toBeVisible();
  await expect(page.getByRole('heading', { name: /regalada/i })).toHaveCount(0);
});
