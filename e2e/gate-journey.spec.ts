/**
 * The gate journey, end to end, nothing mocked (issue 20): an organiser loads an event and a holder through
 * the organisation API, subscribes a webhook receiver this spec runs, and makes a door key for the event.
 * The holder opens their QR pass on a 390×844 phone (the standalone panel; the embedded variant on an
 * organiser's host page waits for the embedded offline pass, see below). Phone and door go offline; the
 * phone's QR, read from a screenshot with jsQR, is typed into /scanner the way a keyboard-wedge scanner types
 * (no field focused, characters then Enter) → ADMITTED, decided offline; then the same pass through the
 * camera path (BarcodeDetector removed, so the zxing-wasm worker reads Chromium's fake camera, fed a y4m made
 * from the screenshot) → ALREADY USED. Back online the door syncs and shows the server's final word; the
 * organiser's attendance counts 1 and a `ticket.checked_in` webhook arrives.
 *
 * The door runs in its own Chromium, launched with the fake camera reading a y4m file this spec rewrites
 * before the camera opens (Chromium reads the file when the capture starts).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type FrameLocator, type Page } from './fixtures';
import sharp from 'sharp';
import { chromiumArgs, chromiumExecutable } from './chromium';
import { baseUrl, freshEmail, hostUrl, signInContext, signInViaPanel } from './support';
import { openDoor as openDoorPage, qrImage, shownPass, wedgeScan } from './door-steps';

const PHONE = { width: 390, height: 844 };
const HOUR = 3_600_000;

/** A y4m video (I420, 640×480, a few identical frames) showing `png` centred on white. */
async function writeY4m(file: string, png: Buffer | null) {
  const W = 640;
  const H = 480;
  const base = sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } });
  const picture = png
    ? await sharp(png)
        .flatten({ background: '#ffffff' })
        .resize(400, 400, { kernel: 'nearest', fit: 'contain', background: '#ffffff' })
        .png()
        .toBuffer()
    : null;
  const { data } = await (picture ? base.composite([{ input: picture, gravity: 'centre' }]) : base)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(W * H);
  const u = Buffer.alloc((W / 2) * (H / 2));
  const v = Buffer.alloc((W / 2) * (H / 2));
  for (let row = 0; row < H; row++)
    for (let col = 0; col < W; col++) {
      const i = (row * W + col) * 3;
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      y[row * W + col] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const j = (row / 2) * (W / 2) + col / 2;
        u[j] = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        v[j] = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
      }
    }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: 5 }, () => frame)]));
}

/** The QR image on the phone, once drawn. */
interface Organiser {
  slug: string;
  apiKey: string;
  doorKey: string;
  eventName: string;
  eventExternalId: string;
  holderEmail: string;
  hooks: { type: string }[];
  receiver: Server;
}

/** The organiser's side, all through the organisation API: event, ticket type, holder, webhook, door key. */
async function organiser(tag: string): Promise<Organiser> {
  const api = (path: string, method: string, key: string, body?: unknown) =>
    fetch(`${baseUrl()}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const slug = `gate-${tag}-${Date.now().toString(36)}`;
  const made = await api('/admin/organisations', 'POST', process.env.E2E_ADMIN_KEY!, { slug, name: `Gate ${tag}` });
  expect(made.status).toBe(201);
  const { apiKey } = (await made.json()) as { apiKey: string };
  const eventName = `Gate Night ${tag}`;
  const now = Date.now();
  expect(
    (
      await api('/org/events/gate-night', 'PUT', apiKey, {
        name: eventName,
        venue: 'The Gate',
        city: 'Sydney',
        country: 'AU',
        startsAt: new Date(now - HOUR).toISOString(),
        endsAt: new Date(now + 6 * HOUR).toISOString(),
        timeZone: 'Australia/Sydney',
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await api('/org/ticket-types/ga', 'PUT', apiKey, {
        eventExternalId: 'gate-night',
        name: 'General Admission',
        priceCents: 5000,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
      })
    ).status,
  ).toBe(201);
  const holderEmail = freshEmail(`gate-${tag}`);
  expect((await api('/org/tickets/t-1', 'PUT', apiKey, { ticketTypeExternalId: 'ga', holderEmail })).status).toBe(201);

  const hooks: { type: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push(JSON.parse(body) as { type: string });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const hook = await api('/org/webhooks', 'POST', apiKey, {
    url: `http://127.0.0.1:${port}/hooks`,
    events: ['ticket.checked_in'],
  });
  expect(hook.status, await hook.clone().text()).toBe(201);

  const door = await api('/org/door-keys', 'POST', apiKey, { name: 'Main gate', eventExternalIds: ['gate-night'] });
  expect(door.status).toBe(201);
  const { key: doorKey } = (await door.json()) as { key: string };
  return { slug, apiKey, doorKey, eventName, eventExternalId: 'gate-night', holderEmail, hooks, receiver };
}

/** The door: /scanner in its own browser (fake camera), the door key entered, the event picked, its list kept. */
async function openDoor(doorBrowser: Browser, org: Organiser): Promise<{ context: BrowserContext; door: Page }> {
  const context = await doorBrowser.newContext({ permissions: ['camera'], viewport: { width: 400, height: 860 } });
  // The camera path with no BarcodeDetector (as in Safari and Firefox): the zxing-wasm worker reads it.
  await context.addInitScript(() => {
    delete (window as unknown as { BarcodeDetector?: unknown }).BarcodeDetector;
  });
  const door = await context.newPage();
  await openDoorPage(door, org.doorKey, org.eventName);
  // The service worker keeps the page and its assets (the camera's decoder too) for offline use.
  await door.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => door.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  return { context, door };
}

async function journey(
  browser: Browser,
  doorBrowser: Browser,
  y4m: string,
  org: Organiser,
  openPhone: (context: BrowserContext, page: Page) => Promise<Page | FrameLocator>,
) {
  const { context: doorContext, door } = await openDoor(doorBrowser, org);
  const phoneContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const phonePage = await phoneContext.newPage();
  const phone = await openPhone(phoneContext, phonePage);
  await qrImage(phone);

  // No signal at the gate, for the phone and the door.
  await phoneContext.setOffline(true);
  await doorContext.setOffline(true);
  await expect(phone.locator('img.qr-box__img')).toHaveAttribute('data-pass-kind', 'device');
  await expect(door.locator('#door-status')).toHaveAttribute('data-online', 'false');

  // A keyboard-wedge scanner types the code and Enter, with nothing focused on the door's page.
  const first = await shownPass(await qrImage(phone));
  expect(first.code).toMatch(/^TP2\.[A-Za-z0-9_-]{252}$/);
  await wedgeScan(door, first.code);
  const verdict = door.locator('#result .verdict');
  await expect(verdict).toHaveText('ADMITTED');
  await expect(door.locator('#result')).toContainText('decided offline, will sync');
  await expect(door.locator('#result')).toContainText('General Admission');

  // The camera path: the fake camera shows the phone's QR; no BarcodeDetector, so zxing-wasm reads it.
  const second = await shownPass(await qrImage(phone));
  await writeY4m(y4m, second.png);
  await door.getByRole('button', { name: 'Scan with camera' }).click();
  await expect(verdict).toHaveText('ALREADY USED', { timeout: 30_000 });
  await door.getByRole('button', { name: 'Stop camera' }).click();

  // Back online: the door syncs and says what the server made of it; the organiser sees the entry.
  await doorContext.setOffline(false);
  await phoneContext.setOffline(false);
  await expect(verdict).toHaveText('1 check-in synced, none refused', { timeout: 40_000 });
  await expect(door.locator('#result')).not.toContainText('decided offline');
  const attendance = await fetch(`${baseUrl()}/v1/org/events/${org.eventExternalId}/attendance`, {
    headers: { authorization: `Bearer ${org.apiKey}` },
  });
  expect(await attendance.json()).toMatchObject({ issued: 1, checkedIn: 1 });
  await expect.poll(() => org.hooks.map((h) => h.type), { timeout: 30_000 }).toContain('ticket.checked_in');

  await phoneContext.close();
  await doorContext.close();
}

test.describe('the gate journey', () => {
  let doorBrowser: Browser;
  let y4m: string;
  test.beforeAll(async () => {
    y4m = join(mkdtempSync(join(tmpdir(), 'tp-gate-')), 'camera.y4m');
    await writeY4m(y4m, null);
    doorBrowser = await chromium.launch({
      executablePath: chromiumExecutable,
      args: [
        ...chromiumArgs,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${y4m}`,
      ],
    });
  });
  test.afterAll(async () => {
    await doorBrowser.close();
  });

  test('standalone panel: offline pass, wedge scan ADMITTED, camera ALREADY USED, sync, attendance, webhook', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const org = await organiser('standalone');
    try {
      await journey(browser, doorBrowser, y4m, org, async (context, page) => {
        await signInContext(context, org.holderEmail);
        await page.goto(`${baseUrl()}/en/?PANEL_TAB=QR`);
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
        // The device pass is certified while online (IndexedDB `tp-pass`), so the QR keeps working offline.
        await expect(page.locator('img.qr-box__img')).toBeVisible();
        await expect
          .poll(() =>
            page.evaluate(
              () =>
                new Promise<boolean>((resolve) => {
                  const open = indexedDB.open('tp-pass');
                  open.onerror = () => resolve(false);
                  open.onsuccess = () => {
                    const db = open.result;
                    if (!db.objectStoreNames.contains('pass')) return (db.close(), resolve(false));
                    const get = db.transaction('pass').objectStore('pass').get('current');
                    get.onsuccess = () => (db.close(), resolve(Boolean(get.result)));
                    get.onerror = () => (db.close(), resolve(false));
                  };
                }),
            ),
          )
          .toBe(true);
        return page;
      });
    } finally {
      org.receiver.close();
    }
  });

  test('embedded panel on an organiser host page: the same journey', async ({ browser }) => {
    test.setTimeout(180_000);
    const org = await organiser('embed');
    try {
      await journey(browser, doorBrowser, y4m, org, async (_context, page) => {
        await page.goto(`${hostUrl()}/?org=${org.slug}`);
        await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
        const frame = page.locator('[data-ticket-panel="modal"] iframe').contentFrame();
        await signInViaPanel(frame, org.holderEmail);
        // Signed in, the hub may open over the pass: close it to show the QR.
        if (await frame.getByRole('dialog').count()) await frame.getByRole('dialog').press('Escape');
        await expect(frame.locator('img.qr-box__img')).toBeVisible();
        return frame;
      });
    } finally {
      org.receiver.close();
    }
  });
});
