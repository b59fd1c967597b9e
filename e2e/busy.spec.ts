/**
 * Load shedding as a holder sees it (issue 43, decision 039): when the API sheds a request (503 `api.busy` with
 * Retry-After), My Tickets says the service is very busy and to try again, in English and Spanish, and its retry
 * button loads the tickets once the API answers again. The busy answer is the API's own shape, given by the route
 * (a real overload cannot be ordered in a browser test; the API side is apps/api/test/load-shedding.test.ts).
 * Screenshots per language, theme and width are kept in test-results/busy/ (looked at by the author).
 */
import { expect, test } from './fixtures';
import { openPanel, signInContext } from './support';

const TEXT = {
  en: { busy: "We're very busy right now. Please try again in a few seconds.", retry: 'Try again' },
  es: { busy: 'Ahora mismo estamos muy ocupados. Inténtalo de nuevo en unos segundos.', retry: 'Reintentar' },
};

// The panel's service worker would fetch the list itself, past the page's route.
test.use({ serviceWorkers: 'block' });

for (const lang of ['en', 'es'] as const) {
  test(`a shed request says the service is busy, and retrying loads the tickets (${lang})`, async ({
    page,
    context,
  }) => {
    await signInContext(context, 'alice@example.com');
    let shed = true;
    await page.route('**/v1/list/ticket_listing**', (route) =>
      shed
        ? route.fulfill({
            status: 503,
            headers: { 'content-type': 'application/json', 'retry-after': '5' },
            body: JSON.stringify({ message: 'api.busy' }),
          })
        : route.continue(),
    );
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        await page.addInitScript((t) => localStorage.setItem('tp.theme', t), theme);
        await page.setViewportSize({ width, height: 800 });
        await openPanel(page, 'PANEL_TAB=MY_TICKET', lang);
        await expect(page.getByText(TEXT[lang].busy)).toBeVisible();
        await page.screenshot({ path: `test-results/busy/${lang}-${theme}-${width}.png` });
      }
    }
    shed = false;
    await page.getByRole('button', { name: TEXT[lang].retry }).click();
    await expect(page.getByText(TEXT[lang].busy)).toHaveCount(0);
    await expect(page.getByRole('button', { name: TEXT[lang].retry })).toHaveCount(0);
  });
}
