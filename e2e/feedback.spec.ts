/**
 * Feedback that tells the truth (issue 13, point 2), in Chromium on a phone-sized screen (360 px):
 * a wrong sign-in code shows next to the field (aria-invalid, aria-describedby), once (issue 40 point 11: not again
 * in a toast); toasts cover no heading, field or the header. Uses alice (a sign-in only: no ticket is touched).
 */
import { expect, test } from './fixtures';
import { mailCount, waitForCode } from './mail';
import { openPanel } from './support';

test.use({ viewport: { width: 360, height: 740 } });

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('a wrong code errs next to its field and below the header; the right code clears the error on the pass', async ({
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
  // Only there: "Wrong OTP" is said once, not again in a toast (issue 40 point 11).
  await page.waitForTimeout(500);
  await expect(page.getByText('Wrong OTP')).toHaveCount(1);
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('otp-wrong-code-360.png') });

  // Editing the code clears the field's error.
  await input.fill(code);
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator(`[id="${noteId}"]`)).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Signed in: the QR pass (no hub over it since issue 40), and no error is left over it.
  await expect(page.getByRole('img', { name: 'Your entry QR code' })).toBeVisible();
  await expect(page.locator('.Toastify__toast--error')).toHaveCount(0);
});

/** Whether two boxes overlap (touching edges do not count). */
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
type Box = { x: number; y: number; width: number; height: number };

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test(`toasts cover no heading and no field at ${viewport.width} px (issue 23)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await openPanel(page, 'PANEL_TAB=LOGIN');
    const before = mailCount();
    await page.getByRole('textbox', { name: 'Email' }).fill('alice@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = await waitForCode('alice@example.com', before);
    const input = page.getByRole('textbox', { name: 'Verification code' });
    await input.fill(wrong(code));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    // A toast (a new code sent; the wrong code itself errs only next to its field): it covers nothing.
    await page.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.locator('.Toastify__toast--success')).toBeVisible();
    await expect.poll(() => page.locator('.Toastify__toast').count()).toBe(1);
    await page.waitForTimeout(500); // the entering animation

    const toasts = await page
      .locator('.Toastify__toast')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as Box));
    const guarded = await page
      .locator('h1, h2, input, select, textarea, label, header.header')
      .evaluateAll((els) =>
        els
          .filter((el) => (el as HTMLElement).offsetParent !== null || el.tagName === 'HEADER')
          .map((el) => ({ what: el.outerHTML.slice(0, 60), box: el.getBoundingClientRect().toJSON() as Box })),
      );
    expect(guarded.length).toBeGreaterThan(2);
    for (const t of toasts) for (const g of guarded) expect(overlaps(t, g.box), `a toast covers ${g.what}`).toBe(false);
    await page.screenshot({ path: test.info().outputPath(`toasts-${viewport.width}.png`) });
    await context.close();
  });
}
