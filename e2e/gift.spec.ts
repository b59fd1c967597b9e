/**
 * Gifting and unlocking, as people use them (issue "Gifting a ticket and unlocking benefits"):
 * alice gifts her Aotearoa Sound General Admission to bob by username (search "bob", pick bob#7315)
 * and her Laneway Sessions VIP to bob by e-mail; bob, signed in in a second browser context, sees
 * both; alice no longer does (her Laneway Sessions General Admission stays); the Gift button is
 * absent on her Harbour Lights ticket (event access used). Bob then unlocks the Laneway Sessions VIP
 * "Merch store discount" and sees its code.
 *
 * Tickets used (allotted to this spec): alice's Aotearoa Sound GA, Laneway Sessions VIP and (read
 * only) Harbour Lights GA and Laneway Sessions GA. Assertions count cards before and after, so they
 * do not depend on what other specs did to other tickets.
 */
import { expect, test, type Page } from './fixtures';
import { mailCount, waitForMail } from './mail';
import { baseUrl, openPanel, signInContext, type Tokens } from './support';

interface Listed {
  userTicketId: number;
  eventName: string;
  ticketName: string;
}

async function upcoming(tokens: Tokens): Promise<Listed[]> {
  const res = await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as Listed[];
}
const idsOf = (list: Listed[], eventName: string, ticketName: string) =>
  list.filter((t) => t.eventName === eventName && t.ticketName === ticketName).map((t) => t.userTicketId);

/** The My-tickets card of a ticket: its accessible name is "<event>, <ticket type>". */
/** A My-tickets card by event and ticket type, whatever its ticket number (issue 23: "…, Ticket #12"). */
const card = (page: Page, eventName: string, ticketName: string) =>
  page.getByRole('button', {
    name: new RegExp(`^${`${eventName}, ${ticketName}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, Ticket #\\d+$`),
  });

async function openMyTickets(page: Page) {
  await openPanel(page, 'PANEL_TAB=MY_TICKET');
  await expect(page.getByRole('heading', { name: 'My tickets' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Upcoming' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: /, / }).first()).toBeVisible();
}

test('alice gifts one ticket by username and one by e-mail; bob sees both and unlocks a benefit', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const aliceCtx = await browser.newContext();
  const bobCtx = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const aliceTokens = await signInContext(aliceCtx, 'alice@example.com');
  const bobTokens = await signInContext(bobCtx, 'bob@example.com');
  const alice = await aliceCtx.newPage();
  const bob = await bobCtx.newPage();

  const aliceBefore = await upcoming(aliceTokens);
  const bobBefore = await upcoming(bobTokens);
  const aliceAotearoa = idsOf(aliceBefore, 'Aotearoa Sound', 'General Admission');
  const aliceLanewayVip = idsOf(aliceBefore, 'Laneway Sessions', 'VIP');
  const aliceLanewayGa = idsOf(aliceBefore, 'Laneway Sessions', 'General Admission');
  expect(aliceAotearoa.length).toBeGreaterThan(0);
  expect(aliceLanewayVip.length).toBeGreaterThan(0);
  expect(aliceLanewayGa.length).toBeGreaterThan(0);

  // Harbour Lights: event access used, so no Gift button and no Swap/Resell menu.
  await openMyTickets(alice);
  await card(alice, 'Harbour Lights Festival', 'General Admission').first().click();
  await expect(alice.getByRole('heading', { level: 1, name: 'Harbour Lights Festival' })).toBeVisible();
  await expect(alice.getByText('Used on', { exact: false }).first()).toBeVisible();
  await expect(alice.getByRole('button', { name: 'Gift', exact: true })).toHaveCount(0);
  await expect(alice.getByRole('button', { name: 'More actions' })).toHaveCount(0);

  // Aotearoa Sound: Gift is offered, with a menu holding Swap and Resell.
  await openMyTickets(alice);
  await card(alice, 'Aotearoa Sound', 'General Admission').first().click();
  await expect(alice.getByRole('heading', { level: 1, name: 'Aotearoa Sound' })).toBeVisible();
  await alice.getByRole('button', { name: 'More actions' }).click();
  await expect(alice.getByRole('menuitem', { name: 'Swap ticket' })).toBeVisible();
  await expect(alice.getByRole('menuitem', { name: 'Resell ticket' })).toBeVisible();
  await alice.keyboard.press('Escape');
  await expect(alice.getByRole('menu')).toHaveCount(0);
  await alice.getByRole('button', { name: 'Gift', exact: true }).click();

  // The gift screen opens with that ticket verified and pre-selected.
  await expect(alice).toHaveURL(/PANEL_TAB=GIFT/);
  await expect(alice.getByRole('heading', { level: 1, name: 'Gift a ticket' })).toBeVisible();
  const gifting = alice.getByRole('region', { name: 'You are gifting' });
  await expect(gifting).toContainText('Aotearoa Sound');
  await expect(gifting).toContainText('General Admission');

  // Receiver by username: debounced search, suggestions, pick, confirm.
  await alice.getByRole('tab', { name: 'Username' }).click();
  const confirm = alice.getByRole('button', { name: 'Confirm recipient' });
  await expect(confirm).toBeDisabled();
  const search = alice.getByRole('combobox', { name: "Recipient's username" });
  await search.fill('bob');
  const suggestions = alice.getByRole('listbox', { name: 'Suggestions' });
  await expect(suggestions).toBeVisible();
  await suggestions.getByRole('option', { name: 'bob#7315' }).click();
  await expect(suggestions).toBeHidden();
  await expect(search).toHaveValue('bob#7315');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(alice.getByRole('region', { name: 'To recipient' })).toContainText('bob#7315');

  // Terms before Gift.
  const giftBtn = alice.getByRole('button', { name: 'Gift ticket' });
  await expect(giftBtn).toBeDisabled();
  await alice.getByRole('checkbox', { name: /permanently transferred and cannot be taken back/ }).check();
  await expect(giftBtn).toBeEnabled();
  let mailsBefore = mailCount();
  await giftBtn.click();
  await expect(alice.getByRole('heading', { name: 'Ticket gifted!' })).toBeVisible();
  await waitForMail('bob@example.com', {
    after: mailsBefore,
    match: (raw) => /^Subject: .*gifted you a ticket/im.test(raw),
  });

  // Gift more: the form is reset; Aotearoa Sound is no longer in the dropdown.
  await alice.getByRole('button', { name: 'Gift more tickets' }).click();
  await expect(alice.getByRole('region', { name: 'You are gifting' })).toHaveCount(0);
  const dropdown = alice.getByRole('combobox', { name: 'Ticket to gift' });
  await dropdown.click();
  const options = alice.getByRole('listbox', { name: 'Ticket to gift' });
  await expect(options.getByRole('option', { name: 'Laneway Sessions · General Admission' }).first()).toBeVisible();
  await expect(options.getByRole('option', { name: 'Aotearoa Sound · General Admission' })).toHaveCount(
    aliceAotearoa.length - 1,
  );
  await options.getByRole('option', { name: 'Laneway Sessions · VIP' }).first().click();
  await expect(alice.getByRole('region', { name: 'You are gifting' })).toContainText('VIP');

  // Receiver by e-mail (the default tab): the invalid message is translated, never the raw key (issue 13).
  await expect(alice.getByRole('tab', { name: 'Email' })).toHaveAttribute('aria-selected', 'true');
  const emailBox = alice.getByRole('textbox', { name: "Recipient's email" });
  await emailBox.fill('bob-at-example');
  await emailBox.blur();
  await expect(alice.getByRole('alert').filter({ hasText: 'Email is not valid' })).toBeVisible();
  await expect(confirm).toBeDisabled();
  await emailBox.fill('bob@example.com');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(alice.getByRole('region', { name: 'To recipient' })).toContainText('bob@example.com');
  await alice.getByRole('checkbox', { name: /permanently transferred/ }).check();
  mailsBefore = mailCount();
  await alice.getByRole('button', { name: 'Gift ticket' }).click();
  await expect(alice.getByRole('heading', { name: 'Ticket gifted!' })).toBeVisible();
  // The success page speaks of a gift made (issue 40 point 11): no "You are gifting" any more.
  await expect(alice.getByRole('region', { name: 'You gifted' })).toContainText('VIP');
  await expect(alice.getByRole('region', { name: 'Now with' })).toContainText('bob@example.com');
  await expect(alice.getByText(/you are gifting|to recipient/i)).toHaveCount(0);
  await alice.screenshot({ path: 'test-results/gift/success-en-1280.png', fullPage: true });
  await waitForMail('bob@example.com', {
    after: mailsBefore,
    match: (raw) => /^Subject: .*gifted you a ticket/im.test(raw),
  });

  // "View my ticket": alice no longer sees either gifted ticket; her Laneway Sessions GA stays.
  await alice.getByRole('button', { name: 'View my tickets' }).click();
  await expect(alice).toHaveURL(/PANEL_TAB=MY_TICKET/);
  await expect(card(alice, 'Laneway Sessions', 'General Admission')).toHaveCount(aliceLanewayGa.length);
  await expect(card(alice, 'Aotearoa Sound', 'General Admission')).toHaveCount(aliceAotearoa.length - 1);
  await expect(card(alice, 'Laneway Sessions', 'VIP')).toHaveCount(aliceLanewayVip.length - 1);

  // Bob, in his own browser context, sees both.
  const aliceAfter = await upcoming(aliceTokens);
  const bobAfter = await upcoming(bobTokens);
  const gifted = aliceBefore.map((t) => t.userTicketId).filter((id) => !aliceAfter.some((a) => a.userTicketId === id));
  expect(gifted).toHaveLength(2);
  expect(gifted.every((id) => bobAfter.some((b) => b.userTicketId === id))).toBe(true);
  await openMyTickets(bob);
  await expect(card(bob, 'Aotearoa Sound', 'General Admission')).toHaveCount(
    idsOf(bobBefore, 'Aotearoa Sound', 'General Admission').length + 1,
  );
  await expect(card(bob, 'Laneway Sessions', 'VIP')).toHaveCount(
    idsOf(bobBefore, 'Laneway Sessions', 'VIP').length + 1,
  );

  // Bob opens the Laneway Sessions VIP he received and unlocks its merch discount.
  const lanewayVip = gifted.find((id) => aliceLanewayVip.includes(id))!;
  await openPanel(bob, `PANEL_TAB=TICKET&USER_TICKET_ID=${lanewayVip}`);
  await expect(bob.getByRole('heading', { level: 1, name: 'Laneway Sessions' })).toBeVisible();
  await bob.getByRole('button', { name: /Merch store discount/ }).click();
  const modal = bob.getByRole('dialog', { name: 'Merch store discount' });
  await expect(modal).toBeVisible();
  await expect(modal.getByText('SLL-MEL-MERCH20')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Unlock' }).click();
  await expect(modal.getByText('SLL-MEL-MERCH20', { exact: true })).toBeVisible();
  await modal.getByRole('button', { name: 'Copy code' }).click();
  await expect(modal.getByRole('button', { name: 'Copy code' })).toContainText('Copied');
  expect(await bob.evaluate(() => navigator.clipboard.readText())).toBe('SLL-MEL-MERCH20');

  // Unlocked codes stay revealed: reopen the ticket page.
  await modal.getByRole('button', { name: 'Close' }).click();
  await bob.reload();
  await bob.getByRole('button', { name: /Merch store discount/ }).click();
  await expect(
    bob.getByRole('dialog', { name: 'Merch store discount' }).getByText('SLL-MEL-MERCH20', { exact: true }),
  ).toBeVisible();
  await expect(
    bob.getByRole('dialog', { name: 'Merch store discount' }).getByRole('button', { name: 'Unlock' }),
  ).toHaveCount(0);

  await aliceCtx.close();
  await bobCtx.close();
});
