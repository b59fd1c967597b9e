/**
 * The demo data in the console (issue 41, point 12 re-walk): what a new organiser sees first after `npm start`. On a
 * server of its own (freshly seeded), an owner of the demo organisation opens a demo ticket's Details (its drawer and
 * its address), edits and saves a demo event, opens its Dashboard and Ticket types at addresses of their own, and
 * saves a new name on the Branding screen with the demo logo left as it was. Screenshots in test-results/console-demo/.
 */
import { expect, test } from './fixtures';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInConsole } from './console-steps';
import { startServer, type StartedServer } from './server';
import { settled, watchNetwork } from './support';

const tag = Date.now().toString(36);
let server: StartedServer;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(360_000);
  dir = mkdtempSync(join(tmpdir(), 'tp-e2e-demo-'));
  server = await startServer({
    dataDir: join(dir, 'data'),
    smtpUrl: process.env.E2E_SMTP_URL!,
    env: { OTP_RESEND_SECONDS: '0' },
  });
});
test.beforeEach(({ context }) => watchNetwork(context));
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Makes `email` an owner of the demo organisation with the demo's own API key (written when it was seeded). */
async function demoOwner(email: string) {
  const key = readFileSync(join(dir, 'data', 'demo-org-api-key'), 'utf8').trim();
  const r = await fetch(`${server.baseUrl}/v1/org/members`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role: 'owner' }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
}

test('the demo data works in the console: Details, Edit and save, Dashboard, Ticket types, Branding', async ({
  page,
}) => {
  const email = `demo-owner-${tag}@console.example`;
  await demoOwner(email);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInConsole(page, email, 'en', server.baseUrl);
  const nav = page.getByRole('navigation');

  // Holders: a demo ticket has its id and event; Details opens its drawer at its own address.
  await nav.getByRole('link', { name: 'Holders' }).click();
  const first = page.getByRole('button', { name: /^Details: DEMO-\d{4}$/ }).first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(page).toHaveURL(/\/console\/holders\/DEMO-\d{4}/);
  await expect(page.getByTestId('ticket-number')).toContainText(/#\d+/);
  await settled(page);
  for (const theme of ['light', 'dark'] as const)
    for (const lang of ['en', 'es'] as const)
      for (const width of [360, 1280]) {
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`${server.baseUrl}${new URL(page.url()).pathname}?lang=${lang}`);
        await page.setViewportSize({ width, height: 800 });
        await expect(page.getByTestId('ticket-number')).toBeVisible();
        await settled(page);
        await page.screenshot({
          path: `test-results/console-demo/drawer-${lang}-${theme}-${width}.png`,
          fullPage: true,
        });
      }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.baseUrl}/console/events?lang=en`);

  // Events: Edit opens the demo event's form with its id, at its own address, and saves.
  await page.getByRole('button', { name: 'Edit: Laneway Sessions' }).click();
  await expect(page).toHaveURL(/\/console\/events\/demo-laneway-sessions\/edit/);
  await expect(page.getByLabel('Your event id')).toHaveValue('demo-laneway-sessions');
  await page.getByLabel('Name', { exact: true }).fill('Laneway Sessions (late show)');
  // The event form's Save comes first (the refund policy box below has its own).
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Laneway Sessions (late show)' })).toBeVisible();
  // What the form does not edit is kept (a PUT replaces the event: its image and logo were erased).
  const key = readFileSync(join(dir, 'data', 'demo-org-api-key'), 'utf8').trim();
  const saved = await fetch(`${server.baseUrl}/v1/org/events/demo-laneway-sessions`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(await saved.json()).toMatchObject({
    name: 'Laneway Sessions (late show)',
    imageUrl: expect.stringMatching(/^\/public\/images\/.+\.svg$/),
  });

  // Dashboard and Ticket types have addresses of their own; Back returns to Events.
  await page.getByRole('button', { name: 'Dashboard: Laneway Sessions (late show)' }).click();
  await expect(page).toHaveURL(/\/console\/events\/demo-laneway-sessions\/dashboard/);
  await page.goBack();
  await expect(page).toHaveURL(/\/console\/events(\?|$)/);
  await page.getByRole('button', { name: 'Ticket types: Laneway Sessions (late show)' }).click();
  await expect(page).toHaveURL(/\/console\/events\/demo-laneway-sessions\/ticket-types/);
  await expect(page.getByRole('cell', { name: 'demo-laneway-sessions-ga', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'demo-laneway-sessions-vip', exact: true })).toBeVisible();

  // Branding: a new name saves with the demo logo left as it was, and the preview still shows that logo.
  await nav.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByLabel('Logo URL (https)')).toHaveValue('/public/demo/org-logo.svg');
  await page.getByLabel('Name', { exact: true }).fill(`Southern Lights ${tag}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved. The holder panel shows it within a minute.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('preview-light').locator('img')).toHaveAttribute('src', '/public/demo/org-logo.svg');
  await expect(page.getByTestId('preview-light')).toContainText(`Southern Lights ${tag}`);
});
