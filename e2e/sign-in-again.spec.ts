/**
 * Asking for a sign-in code again within the resend window (issue 23): the panel opens the code step of the
 * code already sent, with the resend countdown, instead of staying on the e-mail step with "Please wait a
 * minute…". The shared e2e server has no resend window (specs sign the same people in many times), so this
 * spec starts its own beside it with the product's default of 60 s, mailing to the same sink.
 */
import { expect, test } from './fixtures';
import { mailCount, mailsAfter, waitForCode } from './mail';
import { freshEmail, ownServer } from './support';

test.describe.configure({ mode: 'serial' });

const server = ownServer('resend', { OTP_RESEND_SECONDS: '60' });

test('a second request for the same e-mail within the window opens the code step of the code already sent', async ({
  page,
}) => {
  const email = freshEmail('again');
  const before = mailCount();
  await page.goto(`${server().baseUrl}/en/?PANEL_TAB=LOGIN`);
  const emailBox = page.getByRole('textbox', { name: 'Email' });
  await emailBox.fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await waitForCode(email, before);
  const codeStep = page.getByRole('heading', { name: 'Check your e-mail' });
  await expect(codeStep).toBeVisible();

  // "Use another e-mail" forgets the sign-in in this browser; asking again for the same address within the
  // minute lands on the code step, counting down, with no error and no second mail.
  await page.getByRole('button', { name: 'Use another e-mail' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await emailBox.fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(codeStep).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const resend = page.getByRole('button', { name: /^Resend code in \d+ s$/ });
  await expect(resend).toBeDisabled();
  const seconds = Number(/(\d+) s$/.exec((await resend.textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(60);
  await expect(page.getByText('Please wait a minute before asking for another code.')).toHaveCount(0);

  // The code in the inbox signs in (a new account: its name step next).
  await page.getByRole('textbox', { name: 'Verification code' }).fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Tell us your name' })).toBeVisible();
  expect(mailsAfter(before).filter((raw) => raw.includes(email))).toHaveLength(1);
});

test('from another browser the same holder also gets the code step, in Spanish', async ({ browser }) => {
  const email = freshEmail('again-es');
  const before = mailCount();
  const first = await fetch(`${server().baseUrl}/v1/auth/signInOrRegisterAndSignIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, locale: 'es' }),
  });
  expect(first.status).toBe(200);
  const code = await waitForCode(email, before);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server().baseUrl}/es/?PANEL_TAB=LOGIN`);
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa tu correo' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Reenviar código en \d+ s$/ })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Código de verificación' }).fill(code);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { name: 'Dinos tu nombre' })).toBeVisible();
  await context.close();
});
