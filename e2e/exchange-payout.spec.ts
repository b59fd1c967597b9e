/**
 * Issue 45: an organisation's payout account from the console. Its releases are paid to it, so an organisation made
 * without one cannot release: its owner, on the event's exchange page, finds the release held back until it is
 * verified, fills the sandbox form (this deployment has no Stripe) and then releases to the fan waiting. Axe and
 * 360 px screenshots of the box (its form before, its one line after) in both themes and languages.
 */
import { expect, test } from './fixtures';
import { signInConsole } from './console-steps';
import { expectAccessible, freshEmail, signInContext } from './support';
import { join, openQueuePage, queueEvent, releaseInConsole } from './exchange-steps';

const TEXT = {
  en: {
    box: 'Payout account',
    form: "Verify your organisation's payout details",
    first: 'First name',
    last: 'Last name',
    birth: 'Date of birth',
    bank: 'Bank account',
    verify: 'Verify payout account',
    waits: 'Releasing waits until',
    verified: "Released tickets are paid to your organisation's payout account.",
    release: 'Release',
    releaseForm: 'Release tickets',
  },
  es: {
    box: 'Cuenta de cobros',
    form: 'Verifica los datos de cobro de tu organización',
    first: 'Nombre',
    last: 'Apellidos',
    birth: 'Fecha de nacimiento',
    bank: 'Cuenta bancaria',
    verify: 'Verificar cuenta de cobros',
    waits: 'Podrás liberar entradas cuando',
    verified: 'Las entradas que liberas se pagan en la cuenta de cobros de tu organización.',
    release: 'Liberar',
    releaseForm: 'Liberar entradas',
  },
} as const;

test("an organisation without a payout account: the owner's release waits, the sandbox form verifies it, then the release goes to the fan", async ({
  browser,
  page,
}) => {
  const owner = freshEmail('xp-owner');
  const { slug } = await queueEvent('payout', owner, { noPayoutAccount: true });
  const fan = await signInContext(await browser.newContext(), freshEmail('xp-fan'));
  await join(slug, fan.accessToken, 1);
  await signInConsole(page, owner);
  await openQueuePage(page);

  const box = page.getByRole('region', { name: 'Payout account' });
  await expect(box).toContainText("paid to your organisation's own payout account");
  const release = page.getByRole('form', { name: 'Release tickets' });
  await expect(release).toContainText('Releasing waits until');
  await expect(release.getByRole('button', { name: 'Release' })).toBeDisabled();

  const form = box.getByRole('form', { name: "Verify your organisation's payout details" });
  await form.getByLabel('Country').selectOption('AU');
  await form.getByLabel('First name').fill('Ann');
  await form.getByLabel('Last name').fill('Lee');
  await form.getByLabel('Date of birth').fill('1985-06-07');
  await form.getByLabel('Bank account').fill('062-000 12345678');
  await form.getByRole('button', { name: 'Verify payout account' }).click();
  await expect(box.getByTestId('payout-verified')).toHaveText(TEXT.en.verified);
  await expect(form).toBeHidden();
  await expect(release.getByRole('button', { name: 'Release' })).toBeEnabled();

  await releaseInConsole(page, 1, 1);
  await expect(page.getByTestId('exchange-ga-offered')).toHaveText('1');
});

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['en', 'es'] as const) {
    test(`payout account box: axe and screenshots at 360 px, ${theme}, ${lang}`, async ({ page }) => {
      const text = TEXT[lang];
      const owner = freshEmail(`xp-owner-${theme}-${lang}`);
      await queueEvent(`payout-${theme}-${lang}`, owner, { noPayoutAccount: true });
      await page.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
      await page.setViewportSize({ width: 360, height: 780 });
      await signInConsole(page, owner, lang);
      await openQueuePage(page, lang);
      const box = page.getByRole('region', { name: text.box });
      const form = box.getByRole('form', { name: text.form });
      await expect(form).toBeVisible();
      await expect(page.getByRole('form', { name: text.releaseForm })).toContainText(text.waits);
      // A field left empty says so (the error's colour in both themes).
      await form.getByLabel(text.first).fill('Ann');
      await form.getByLabel(text.last).focus();
      await form.getByLabel(text.birth).focus();
      await box.screenshot({ path: `test-results/exchange/payout-form-${lang}-${theme}-360.png` });
      await expectAccessible(page, `payout form ${theme} ${lang}`);
      await form.getByLabel(text.last).fill('Lee');
      await form.getByLabel(text.birth).fill('1985-06-07');
      await form.getByLabel(text.bank).fill('062-000 12345678');
      await form.getByRole('button', { name: text.verify }).click();
      await expect(box.getByTestId('payout-verified')).toHaveText(text.verified);
      await expect(
        page.getByRole('form', { name: text.releaseForm }).getByRole('button', { name: text.release }),
      ).toBeEnabled();
      await box.screenshot({ path: `test-results/exchange/payout-verified-${lang}-${theme}-360.png` });
      await expectAccessible(page, `payout verified ${theme} ${lang}`);
    });
  }
}
