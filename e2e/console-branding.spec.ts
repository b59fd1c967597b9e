/**
 * Issue 41, point 7: branding saved in the console shows in the console's own preview at once and after a reload,
 * although browsers keep the public branding answer for a minute (the preview asks the server past that cache;
 * embedded panels keep it). Screenshots in test-results/console-branding/.
 */
import { expect, test } from './fixtures';
import { createOrganisation, signInConsole } from './console-steps';
import { baseUrl, expectAccessible, settled, watchNetwork } from './support';

const tag = Date.now().toString(36);

test.beforeEach(({ context }) => watchNetwork(context));

for (const lang of ['en', 'es'] as const) {
  test(`a saved colour shows in the preview at once and after a reload (${lang})`, async ({ page }) => {
    const owner = `owner-brand-${lang}-${tag}@console.example`;
    const slug = `brand-${lang}-${tag}`;
    await createOrganisation(slug, owner);
    // The public answer is still cached by browsers (embedded panels stay fast).
    const pub = await fetch(`${baseUrl()}/v1/organisations/${slug}`);
    expect(pub.headers.get('cache-control')).toBe('public, max-age=60');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await signInConsole(page, owner, lang);
    await page
      .getByRole('navigation')
      .getByRole('link', { name: lang === 'es' ? 'Marca' : 'Branding' })
      .click();
    const light = page.getByTestId('preview-light');
    await expect(light.locator('code')).toHaveText('#7c3aed');

    const colour = page.getByLabel(lang === 'es' ? 'Color (#rrggbb)' : 'Colour (#rrggbb)');
    await expect(colour).toHaveValue('#7c3aed');
    await colour.fill('#0e7490');
    await page.getByRole('button', { name: lang === 'es' ? 'Guardar' : 'Save', exact: true }).click();
    await expect(page.getByRole('status')).toBeVisible();
    // In the light theme the teal is dark enough to be drawn as given.
    await expect(light.locator('code')).toHaveText('#0e7490', { timeout: 5_000 });
    await expect(light.getByText(lang === 'es' ? 'Ver entrada' : 'View ticket')).toHaveCSS(
      'background-color',
      'rgb(14, 116, 144)',
    );

    await page.reload();
    await page
      .getByRole('navigation')
      .getByRole('link', { name: lang === 'es' ? 'Marca' : 'Branding' })
      .click();
    await expect(light.locator('code')).toHaveText('#0e7490', { timeout: 5_000 });
    await settled(page);
    await expectAccessible(page, `branding preview ${lang}`);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({
          path: `test-results/console-branding/preview-${lang}-${theme}-${width}.png`,
          fullPage: true,
        });
      }
    }
  });
}
