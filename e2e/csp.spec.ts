/**
 * The Content-Security-Policy in a real browser (issue 14 item 6): the panel, its screens and the
 * demo host page (another origin, embedding the panel) run without a single CSP violation, and a page
 * on an origin outside EMBED_ORIGINS cannot frame the panel.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from './fixtures';
import { baseUrl, hostUrl, settled, signInContext, watchNetwork } from './support';
import { chromiumArgs, chromiumExecutable } from './chromium';

// evil.test resolves to this machine: a real origin outside EMBED_ORIGINS (the loopback site).
test.use({
  launchOptions: {
    executablePath: chromiumExecutable,
    args: [...chromiumArgs, '--host-resolver-rules=MAP evil.test 127.0.0.1'],
  },
});

/** Collects CSP violations of the page and its frames (console reports them as errors). */
function violations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) found.push(m.text());
  });
  return found;
}

test('the panel screens and the demo host page run with no CSP violation', async ({ page, context }) => {
  const found = violations(page);
  watchNetwork(context);
  await signInContext(context, 'alice@example.com');
  for (const tab of ['QR', 'MY_TICKET', 'GIFT', 'RESELL', 'SETTINGS']) {
    await page.goto(`${baseUrl()}/en/?PANEL_TAB=${tab}`);
    await settled(page);
  }
  await expect(page.locator('#root')).not.toBeEmpty();
  await page.goto(hostUrl());
  const inline = page.locator('#ticket-panel-inline iframe');
  await inline.scrollIntoViewIfNeeded();
  await expect(inline.contentFrame().locator('#root')).not.toBeEmpty();
  await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
  await expect(page.locator('[data-ticket-panel="modal"] iframe').contentFrame().locator('#root')).not.toBeEmpty();
  expect(found).toEqual([]);
});

test.describe('framing', () => {
  let server: Server;
  let port: number;
  test.beforeAll(async () => {
    server = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>host</title><iframe id="f" src="${baseUrl()}/en/?PANEL_TAB=LOGIN"></iframe>`),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('a page outside EMBED_ORIGINS cannot frame the panel; one on the loopback site can', async ({ page }) => {
    await page.goto(`http://evil.test:${port}/`);
    // Chromium replaces a frame refused by frame-ancestors with its error page.
    await expect.poll(() => page.frames()[1]?.url()).toMatch(/^chrome-error:/);
    await page.goto(`http://localhost:${port}/`);
    await expect.poll(() => page.frames()[1]?.url()).toContain('/en/?PANEL_TAB=LOGIN');
    await expect(page.frameLocator('#f').locator('#root')).toHaveCount(1);
  });
});
