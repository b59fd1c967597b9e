/**
 * Swap (spec sections 2 Swap, 4 Swap, 7 checkout redirect), end to end through the sandbox checkout.
 * Uses ONLY alice's Laneway Sessions General Admission (upgraded to VIP) and alice's River Nights VIP
 * (downgraded to General Admission); alice's Laneway Sessions VIP belongs to another spec and is not relied on.
 */
import { expect, test, type Page } from './fixtures';
import type { MyTicket } from '@tp/contract';
import { baseUrl, openPanel, signInContext, type Tokens } from './support';

const card = (page: Page, type: string, event: string) =>
  page.getByRole('article', { name: `${type}, ${event}`, exact: true });
const baseList = (page: Page) => page.getByRole('region', { name: /choose the ticket to swap/i });

async function aliceTickets(tokens: Tokens): Promise<MyTicket[]> {
  const r = await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  return (await r.json()) as MyTicket[];
}

test('upgrade: Laneway Sessions General Admission to VIP through the sandbox checkout, back to the panel with the new type', async ({
  page,
  context,
}) => {
  const tokens = await signInContext(context, 'alice@example.com');
  const ga = (await aliceTickets(tokens)).find(
    (x) => x.eventName === 'Laneway Sessions' && x.ticketName === 'General Admission',
  );
  expect(ga, 'alice holds a Laneway Sessions General Admission').toBeTruthy();

  await openPanel(page, `PANEL_TAB=SWAP&USER_TICKET_ID=${ga!.userTicketId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Swap ticket' })).toBeVisible();
  // USER_TICKET_ID pre-selects that ticket's type with a count of 1.
  const base = card(page, 'General Admission', 'Laneway Sessions');
  await expect(base.locator('output')).toHaveText('1');
  await expect(base.getByRole('button', { name: /one more/i })).toBeDisabled();

  await page.getByRole('button', { name: 'Swap to VIP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your swap' });
  await expect(dialog).toContainText('This is an upgrade: you pay the difference of A$120.00 at checkout.');
  await dialog.getByRole('button', { name: 'Continue to checkout' }).click();

  // The checkout address of spec section 7: base/locale/slug-eventId/order?redirectDomain=...&origin=ticket_swap
  await page.waitForURL(/\/checkout\/en\/laneway-sessions-\d+\/[0-9a-f-]{36}\?redirectDomain=.+&origin=ticket_swap$/);
  const redirect = new URL(page.url()).searchParams.get('redirectDomain')!;
  expect(redirect).toContain('PANEL_TAB=SWAP');
  await expect(page.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await expect(page.locator('dl')).toContainText('A$120.00');
  await page.getByRole('button', { name: 'Pay with sandbox card' }).click();

  // Back on the panel page the swap started from; the ticket is a VIP now.
  await page.waitForURL((u) => u.href === redirect);
  // The finished swap says what changed, its heading focused (issue 13).
  const done = page.getByRole('region', { name: 'Your swap is done' });
  await expect(done).toContainText('1 ticket · General Admission · Laneway Sessions');
  await expect(done).toContainText('1 ticket · VIP · Laneway Sessions');
  await expect(done).toContainText('You paid the difference of A$120.00.');
  await expect(page.getByRole('heading', { name: 'Your swap is done' })).toBeFocused();
  await expect(card(page, 'VIP', 'Laneway Sessions')).toBeVisible();
  await expect(
    baseList(page).getByRole('article', { name: 'General Admission, Laneway Sessions', exact: true }),
  ).toHaveCount(0);

  await openPanel(page, `PANEL_TAB=TICKET&USER_TICKET_ID=${ga!.userTicketId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Laneway Sessions' })).toBeVisible();
  await expect(page.getByRole('article').getByText('VIP', { exact: true })).toBeVisible();
  const after = (await aliceTickets(tokens)).find((x) => x.userTicketId === ga!.userTicketId)!;
  expect(after.ticketName).toBe('VIP');
});

test('failed target fetch resets the selection; failed start shows the start-swap message', async ({
  page,
  context,
}) => {
  await signInContext(context, 'alice@example.com');
  await openPanel(page, 'PANEL_TAB=SWAP');
  const vip = card(page, 'VIP', 'River Nights');
  await expect(vip.locator('output')).toHaveText('0');

  await page.route(/\/v1\/ticket_swap\/tickets\/\d+$/, (route) =>
    route.fulfill({ status: 500, json: { message: 'api.internal_error' } }),
  );
  await vip.getByRole('button', { name: /one more/i }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong on our side' })).toBeVisible();
  await expect(vip.locator('output')).toHaveText('0');
  await expect(page.getByRole('button', { name: /^Swap to / })).toHaveCount(0);
  await page.unroute(/\/v1\/ticket_swap\/tickets\/\d+$/);

  await page.route('**/v1/ticket_swap/start_swap', (route) =>
    route.fulfill({ status: 409, json: { message: 'api.swap.out_of_stock' } }),
  );
  await vip.getByRole('button', { name: /one more/i }).click();
  await page.getByRole('button', { name: 'Swap to General Admission' }).click();
  await expect(page.getByRole('alert').filter({ hasText: "The swap couldn't be started" })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm your swap' })).toHaveCount(0);
});

test('downgrade: River Nights VIP to General Admission; count rules and cancel reset first', async ({
  page,
  context,
}) => {
  const tokens = await signInContext(context, 'alice@example.com');
  const vipTicket = (await aliceTickets(tokens)).find((x) => x.eventName === 'River Nights' && x.ticketName === 'VIP')!;
  expect(vipTicket, 'alice holds a River Nights VIP').toBeTruthy();
  await openPanel(page, 'PANEL_TAB=SWAP');
  const vip = card(page, 'VIP', 'River Nights');
  const more = vip.getByRole('button', { name: /one more/i });
  const less = vip.getByRole('button', { name: /one less/i });
  // Without USER_TICKET_ID the count starts at 0; it cannot exceed the quantity held (1); decreasing from 1 deselects.
  await expect(vip.locator('output')).toHaveText('0');
  await expect(less).toBeDisabled();
  await more.click();
  await expect(vip.locator('output')).toHaveText('1');
  await expect(more).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Swap to General Admission' })).toBeVisible();
  await less.click();
  await expect(vip.locator('output')).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Swap to General Admission' })).toHaveCount(0);

  // Cancel in the confirmation modal resets everything.
  await more.click();
  await page.getByRole('button', { name: 'Swap to General Admission' }).click();
  let dialog = page.getByRole('dialog', { name: 'Confirm your swap' });
  await expect(dialog).toContainText('This is a downgrade: the price difference of A$80.00 is not refunded.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(vip.locator('output')).toHaveText('0');

  await more.click();
  await page.getByRole('button', { name: 'Swap to General Admission' }).click();
  dialog = page.getByRole('dialog', { name: 'Confirm your swap' });
  await dialog.getByRole('button', { name: 'Confirm swap' }).click();
  await page.waitForURL(/\/checkout\/en\/river-nights-\d+\//);
  await expect(page.getByText('Downgrade: the price difference is not refunded')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm swap' }).click();

  await page.waitForURL(/PANEL_TAB=SWAP/);
  await expect(page.getByRole('region', { name: 'Your swap is done' })).toContainText(
    'The price difference of A$80.00 was not refunded.',
  );
  await expect(card(page, 'General Admission', 'River Nights')).toBeVisible();
  await expect(card(page, 'VIP', 'River Nights')).toHaveCount(0);
  await openPanel(page, 'PANEL_TAB=MY_TICKET');
  await expect(page.getByRole('button', { name: 'River Nights, General Admission' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'River Nights, VIP' })).toHaveCount(0);
});
