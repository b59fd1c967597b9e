/**
 * Reading the embedded panel's pass as a door does (issue 20 point 2): open the modal on the demo host page,
 * sign in inside it, decode the QR on screen with jsQR, and ask the door API about the code.
 */
import { expect, type FrameLocator, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { baseUrl, hostUrl, signInViaPanel } from './support';

const scannerKey = () => process.env.E2E_SCANNER_KEY!;
const LIVE_EVENT = 'Harbour Lights Festival';

export const modalFrame = (page: Page) => page.locator('[data-ticket-panel="modal"] iframe').contentFrame();

/** The pass text on screen now, decoded from a screenshot of the QR image as a door camera would. */
export async function shownCode(frame: FrameLocator): Promise<string> {
  const img = frame.locator('img.qr-box__img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  const shot = PNG.sync.read(await img.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  if (!decoded) throw new Error('the QR on screen did not decode');
  return decoded.data;
}

/** The time step a device code carries (body bytes 121–124, see @tp/contract/pass-code). */
export const stepOf = (code: string) => Buffer.from(code.slice(4), 'base64url').readUInt32BE(121);
export const isDeviceCode = (code: string) => /^TP2\.[A-Za-z0-9_-]{252}$/.test(code);
export const isServerCode = (code: string) => /^TP2\.[A-Za-z0-9_-]{98}$/.test(code);

export async function liveEventId(): Promise<number> {
  const r = await fetch(`${baseUrl()}/v1/access/events`, { headers: { 'x-scanner-key': scannerKey() } });
  const events = (await r.json()) as { id: number; name: string }[];
  const live = events.find((e) => e.name === LIVE_EVENT);
  if (!live) throw new Error(`${LIVE_EVENT} is not on the door's list`);
  return live.id;
}
/** The door's check-in, from the test runner (which the browser context's offline switch does not reach). */
export const checkIn = (code: string, eventId: number) =>
  fetch(`${baseUrl()}/v1/access/check-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-scanner-key': scannerKey() },
    body: JSON.stringify({ code, eventId }),
  });

/** Opens the modal on the host page and signs alice in inside it; the QR screen shows, no hub over it (issue 40). */
export async function signInEmbedded(page: Page): Promise<FrameLocator> {
  await page.goto(hostUrl());
  await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
  const frame = modalFrame(page);
  await expect(frame.getByRole('heading', { name: 'Sign in to your tickets' })).toBeVisible();
  await signInViaPanel(frame, 'alice@example.com');
  await expect(frame.locator('img.qr-box__img')).toBeVisible();
  await expect(frame.getByRole('dialog')).toHaveCount(0);
  await frame.locator('#main').focus();
  return frame;
}

/** Offline, reads the QR at several successive time steps: each a device code the door admits. */
export async function expectRotatingDeviceCodes(frame: FrameLocator) {
  await expect(frame.getByText('Offline — your pass still works')).toBeVisible();
  await expect(frame.locator('img.qr-box__img')).toHaveAttribute('data-pass-kind', 'device');
  const event = await liveEventId();
  const codes = new Map<number, string>();
  const deadline = Date.now() + 30_000;
  while (codes.size < 4 && Date.now() < deadline) {
    const code = await shownCode(frame);
    expect(isDeviceCode(code), code).toBe(true);
    if (!codes.has(stepOf(code))) {
      codes.set(stepOf(code), code);
      // Read at its own step, each code is admitted by the door.
      const answer = await checkIn(code, event);
      expect(answer.status, `step ${stepOf(code)}`).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 700));
  }
  const steps = [...codes.keys()].sort((a, b) => a - b);
  expect(steps.length).toBeGreaterThanOrEqual(4);
  expect(steps.at(-1)! - steps[0]).toBeGreaterThanOrEqual(3);
}
