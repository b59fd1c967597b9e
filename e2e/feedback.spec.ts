/**
 * Feedback that tells the truth (issue 13, point 2), in Chromium on a phone-sized screen (360 px):
 * a wrong sign-in code shows next to the field (aria-invalid, aria-describedby) and in a toast below the
 * header (never over it); the right code then dismisses the error toast, so nothing false sits over the
 * hub. Uses alice (a sign-in only: no ticket is touched).
 */
import { expect, test } from '@playwright/test';
import { mailCount, waitForCode } from './mail';
import { openPanel } from './support';

test.use({ viewport: { width: 360, height: 740 } });

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('a wrong code errs next to its field and below the header; the right code clears the error over the hub', async ({
  page,
}) => {
  await openPanel(page, 'PANEL_TAB=LOGIN');
  const before = mailCount();
  await page.getByRole('textbox', { name: 'Email' }).fill('alice@example.com');
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await waitForCode('alice@example.com', before);

  const input = page.getByRole('textbox', { name: 'Verification code' });
  await input.fill(wrong(code));
  await page.getByRole('button', { name: 'Continue' }).click();

  // Next to the field: the message in its error slot, linked by aria-describedby.
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  const noteId = await input.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${noteId}"]`)).toHaveText('Wrong OTP');
  // And in a toast that does not cover the header on a phone.
  const errorToast = page.locator('.Toastify__toast--error');
  await expect(errorToast).toHaveText(/Wrong OTP/);
  const header = (await page.locator('header.header').boundingBox())!;
  const toastBox = (await errorToast.boundingBox())!;
  expect(toastBox.y).toBeGreaterThanOrEqual(header.y + header.height);
  await page.screenshot({ path: test.info().outputPath('otp-wrong-code-360.png') });

  // Editing the code clears the field's error.
  await input.fill(code);
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator(`[id="${noteId}"]`)).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Signed in: the hub is open over the QR screen, and the wrong-code toast is gone (well before its 5 s).
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(errorToast).toHaveCount(0, { timeout: 2_000 });
});
