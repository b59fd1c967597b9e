/**
 * The first QR drawn before the app (issue 30, decision 023): on a signed-in start on QR the code of the
 * device pass this browser holds is on screen before the app (React, i18next) has started, and it is the
 * signed-in account's; with another account's tokens in the same browser (a sign-in that did not go through
 * logout) that pass is never drawn, neither before the app nor by it.
 */
import { expect, test, type Page } from './fixtures';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { apiSignIn, openPanel, signInContext } from './support';

interface Drawn {
  kind: string;
  src: string;
  /** performance.now() when drawn; `appAt` when the app's first QR image was. */
  at: number;
  appAt?: number;
}

/** Records the first QR drawn before the app (`#first-qr img`) and when the app's own QR image appears. */
const RECORD = `(() => {
  new MutationObserver(() => {
    const first = document.querySelector('#first-qr img');
    if (first && !window.__firstQr) window.__firstQr = { kind: first.dataset.passKind, src: first.src, at: performance.now() };
    if (window.__firstQr && window.__firstQr.appAt === undefined && document.querySelector('#root img.qr-box__img'))
      window.__firstQr.appAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

/** The text of a QR drawn one pixel per module (a data: URL PNG), scaled up 8× for jsQR. */
function decodeDataUrl(src: string): string {
  const png = PNG.sync.read(Buffer.from(src.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const k = 8;
  const w = png.width * k;
  const h = png.height * k;
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const from = (Math.floor(y / k) * png.width + Math.floor(x / k)) * 4;
      out.set(png.data.subarray(from, from + 4), (y * w + x) * 4);
    }
  const decoded = jsQR(out, w, h);
  if (!decoded) throw new Error('the first QR did not decode');
  return decoded.data;
}

/** The user id a pass code carries (byte 1, after the kind, in server and device codes; @tp/contract/pass-code). */
const userIdOf = (code: string) => Buffer.from(code.slice(4), 'base64url').readUInt32BE(1);
const isDeviceCode = (code: string) => /^TP2\.[A-Za-z0-9_-]{252}$/.test(code);
const subOf = (token: string) =>
  Number((JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }).sub);

/** True while this browser holds an offline pass credential (IndexedDB `tp-pass`). */
const hasCredential = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('tp-pass');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('pass')) return (db.close(), resolve(false));
          const get = db.transaction('pass').objectStore('pass').get('current');
          get.onsuccess = () => (db.close(), resolve(Boolean(get.result)));
          get.onerror = () => (db.close(), resolve(false));
        };
      }),
  );

/** Reloads and returns the first QR drawn before the app, once the app's own QR is on screen. */
async function reloadAndRead(page: Page): Promise<Drawn | undefined> {
  await page.reload();
  await expect(page.locator('#root img.qr-box__img')).toBeVisible();
  await expect(page.locator('#first-qr')).toHaveCount(0);
  return page.evaluate(() => (window as unknown as { __firstQr?: Drawn }).__firstQr);
}

test('a reload draws the signed-in account’s stored pass before the app, never another account’s', async ({
  page,
  context,
}) => {
  const alice = await signInContext(context, 'alice@example.com');
  await context.addInitScript({ content: RECORD });
  await openPanel(page, 'PANEL_TAB=QR');
  await expect(page.locator('#root img.qr-box__img')).toBeVisible();
  await expect.poll(() => hasCredential(page), { timeout: 15_000 }).toBe(true);

  // The reload draws the stored pass's code before the app's QR, with the screen's texts; the code is alice's.
  const first = await reloadAndRead(page);
  expect(first?.kind).toBe('device');
  expect(first!.appAt ?? Infinity).toBeGreaterThanOrEqual(first!.at);
  const code = decodeDataUrl(first!.src);
  expect(isDeviceCode(code)).toBe(true);
  expect(userIdOf(code)).toBe(subOf(alice.accessToken));

  // Bob's tokens in this browser without a logout: alice's pass (still stored) is never drawn.
  const bob = await apiSignIn('bob@example.com');
  await page.evaluate((t) => {
    localStorage.setItem('tp.accessToken', t.accessToken);
    localStorage.setItem('tp.refreshToken', t.refreshToken);
  }, bob);
  const second = await reloadAndRead(page);
  if (second) expect(userIdOf(decodeDataUrl(second.src))).toBe(subOf(bob.accessToken));
  const shown = await page.locator('#root img.qr-box__img').evaluate((img: HTMLImageElement) => img.src);
  expect(userIdOf(decodeDataUrl(shown))).toBe(subOf(bob.accessToken));
});

test('a reload with the hub open shows the hub at once on a phone, never the first QR over it', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signInContext(context, 'alice@example.com');
  await context.addInitScript({ content: RECORD });
  await openPanel(page, 'PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB');
  const hub = page.getByRole('dialog');
  await expect(hub).toBeVisible();
  await page.reload();
  await expect(hub).toBeVisible();
  await expect(hub.getByRole('button', { name: 'My QR code' })).toBeVisible();
  // Before, the first QR was drawn over the hub and stayed until the 4 s bound (a phone draws no QR screen under it).
  expect(await page.evaluate(() => (window as { __firstQr?: unknown }).__firstQr)).toBeUndefined();
  await expect(page.locator('#first-qr')).toHaveCount(0);
});
