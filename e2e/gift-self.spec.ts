/**
 * Gifting to yourself (issue 40, point 6): the recipient step refuses the holder's own e-mail at once, in English
 * and Spanish, instead of only the last button. Read-only: alice opens the gift screen on her Laneway Sessions
 * General Admission, types her own address and never confirms. Screenshots of the refusal (both languages, both
 * themes, 360 px and desktop) go to E2E_SHOTS_DIR when it is set.
 */
import { expect, test } from './fixtures';
import { baseUrl, openPanel, signInContext } from './support';

const SELF = { en: "You can't gift a ticket to yourself.", es: 'No puedes regalarte una entrada.' } as const;
const CONFIRM = { en: 'Confirm recipient', es: 'Confirmar destinatario' } as const;

for (const lang of ['en', 'es'] as const)
  for (const theme of ['light', 'dark'] as const)
    for (const viewport of [
      { width: 360, height: 780 },
      { width: 1280, height: 900 },
    ])
      test(`the recipient step refuses the holder's own e-mail (${lang}, ${theme}, ${viewport.width} px)`, async ({
        browser,
      }) => {
        const context = await browser.newContext({ viewport, colorScheme: theme });
        await context.addInitScript((th) => localStorage.setItem('tp.theme', th), theme);
        const tokens = await signInContext(context, 'alice@example.com');
        const list = (await (
          await fetch(`${baseUrl()}/v1/list/ticket_listing?status=UPCOMING`, {
            headers: { authorization: `Bearer ${tokens.accessToken}` },
          })
        ).json()) as { userTicketId: number; eventName: string; ticketName: string }[];
        const ticket = list.find((t) => t.eventName === 'Laneway Sessions' && t.ticketName === 'General Admission');
        expect(ticket).toBeDefined();
        const page = await context.newPage();
        await openPanel(page, `PANEL_TAB=GIFT&USER_TICKET_ID=${ticket!.userTicketId}`, lang);
        const email = page.locator('input[type="email"]');
        await expect(email).toBeVisible();
        await email.fill('Alice@Example.com');
        await email.blur();
        await expect(page.getByRole('alert').filter({ hasText: SELF[lang] })).toBeVisible();
        await expect(page.getByRole('button', { name: CONFIRM[lang] })).toBeDisabled();
        const dir = process.env.E2E_SHOTS_DIR;
        if (dir)
          await page.screenshot({ path: `${dir}/gift-self-${lang}-${theme}-${viewport.width}.png`, fullPage: true });
        await context.close();
      });
