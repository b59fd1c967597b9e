/** The holder's steps on the panel's Resell screen, shared by the resale journeys. */
import { expect, type Page } from './fixtures';

/** Chooses a ticket in the resell dropdown by its name. */
export async function chooseTicket(page: Page, name: RegExp) {
  // A ticket already chosen shows only in its card (issue 40 point 11): Change brings the dropdown back.
  const card = page.getByRole('region', { name: 'You are reselling' });
  if (await card.isVisible()) {
    await card.getByRole('button', { name: 'Change' }).click();
    await expect(card).toHaveCount(0);
  }
  await page.getByRole('combobox', { name: 'Ticket' }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByRole('region', { name: 'You are reselling' })).toContainText(name);
}

/** Price, Continue, terms, List for resale. */
export async function priceAndList(page: Page, price: string, total: string) {
  const priceBox = page.getByRole('textbox', { name: /Price per ticket/ });
  await priceBox.fill(price);
  const summary = page.getByRole('region', { name: 'Pricing summary' });
  await expect(summary).toContainText(total);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(priceBox).toHaveAttribute('readonly', '');
  const list = page.getByRole('button', { name: 'List for resale' });
  await expect(list).toBeDisabled();
  await page.getByRole('checkbox', { name: /I accept the resale terms/ }).check();
  await expect(list).toBeEnabled();
  await list.click();
}
