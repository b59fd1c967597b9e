/**
 * Issue 28: the API reference at /docs renders the API document in Chromium (Swagger UI served from this
 * origin, no CDN: every request the page makes stays on the server), under the page's CSP with no violation.
 */
import { expect, test } from './fixtures';
import { baseUrl } from './support';

test('/docs renders the API reference from local files only', async ({ page }) => {
  const origin = new URL(baseUrl()).origin;
  const foreign: string[] = [];
  const cspErrors: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/docs`);
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Ticket panel API');
  // The audience tags and an operation of each, with its summary.
  for (const tag of ['holder', 'door', 'organiser', 'platform'])
    await expect(page.locator(`.opblock-tag[data-tag="${tag}"]`)).toBeVisible();
  await expect(page.locator('#operations-organiser-upsertTicket')).toContainText('/v1/org/tickets/{externalId}');
  await expect(page.locator('#operations-door-checkIn')).toBeVisible();
  // The webhooks of the document (OpenAPI 3.1) are listed too.
  await expect(page.getByText('ticket.checked_in').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/api-docs/docs-1280.png' });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: 'test-results/api-docs/docs-360.png' });
  expect(foreign).toEqual([]);
  expect(cspErrors).toEqual([]);
});
