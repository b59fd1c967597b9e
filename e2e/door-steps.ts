/**
 * Steps at the door shared by the journeys that end there: /scanner opened with a door key, the QR pass a phone
 * shows, read from a screenshot with jsQR, and a code typed into /scanner the way a keyboard-wedge scanner types it.
 */
import jsQR from 'jsqr';
import sharp from 'sharp';
import { expect, type FrameLocator, type Locator, type Page } from './fixtures';
import { baseUrl } from './support';

/** The QR screen's image, once drawn (the first QR drawn before the app leaves once it is shown). */
export async function qrImage(phone: Page | FrameLocator): Promise<Locator> {
  const img = phone.locator('#root img.qr-box__img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  return img;
}

/**
 * A screenshot of the QR on the phone and the pass text jsQR reads from it. Like a door's camera, it reads frames
 * until one decodes (at most 5, 200 ms apart): the e2e server's code changes every 3 s (QR_TTL_SECONDS), and a frame
 * taken while the phone swaps its image can catch half of each (the fresh-clone CI of b3360f6, twice in a row).
 */
export async function shownPass(img: Locator): Promise<{ png: Buffer; code: string }> {
  for (let frame = 1; ; frame++) {
    const png = await img.screenshot();
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    if (decoded) return { png, code: decoded.data };
    if (frame >= 5) throw new Error('the QR on the phone did not decode in 5 frames');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The door: /scanner on `door`, the door key entered and its one event (`eventName`, in Sydney) picked, online with
 * its admissions list.
 */
export async function openDoor(door: Page, doorKey: string, eventName: string): Promise<void> {
  await door.goto(`${baseUrl()}/scanner`);
  await door.getByLabel('Scanner key').fill(doorKey);
  await door.getByRole('button', { name: 'Start scanning' }).click();
  await expect(door.getByLabel('Event').locator('option')).toHaveText([new RegExp(`^${eventName} · Sydney`)]);
  await expect(door.locator('#door-status')).toContainText(/Online · .*admissions list updated/);
}

/**
 * Types `code` and Enter into the door's page with nothing focused, as a keyboard-wedge scanner does: the first
 * character as a key press (the door's wedge handler takes it and focuses the code field), the rest in one burst, as
 * a scanner sends them (typed one by one they took longer, on a loaded CI machine, than a code lives at
 * QR_TTL_SECONDS=3, and the door rightly said INVALID).
 */
export async function wedgeScan(door: Page, code: string): Promise<void> {
  await door.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await door.keyboard.type(code[0]);
  await expect(door.getByLabel('Pass code')).toBeFocused();
  await door.keyboard.insertText(code.slice(1));
  await door.keyboard.press('Enter');
}

/**
 * Shows `phone`'s QR pass at `door` (read from the screen, typed as a wedge scanner types it) and answers the door's
 * verdict. A code read just before its step ended (QR_TTL_SECONDS=3 in these tests) can reach the door expired, as a
 * phone held up too long does: on INVALID the pass is read and shown again, up to three times, as door staff would.
 */
export async function showPassAtDoor(door: Page, phone: Page | FrameLocator): Promise<string> {
  // Every verdict is a new element: the one on show before the scan is marked, and the scan's is the next unmarked
  // one that is not "Checking…".
  const fresh = door.locator('#result .verdict:not([data-seen])');
  let said = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    await door.evaluate(() => document.querySelector('#result .verdict')?.setAttribute('data-seen', ''));
    await wedgeScan(door, (await shownPass(await qrImage(phone))).code);
    await expect(fresh).toHaveText(/^(?!Checking)/);
    said = (await fresh.textContent()) ?? '';
    if (said !== 'INVALID') return said;
  }
  return said;
}
