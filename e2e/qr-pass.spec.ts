/**
 * The QR pass at gate scale (issue 9): the API sends one pixel per module plus the quiet zone, and
 * the panel scales it to its 396 px box with `image-rendering: pixelated`. What a door scanner sees
 * is the screen: a Chromium screenshot of the pass must decode to the signed code.
 */
import { expect, test } from './fixtures';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { openPanel, signInContext } from './support';

test('the QR pass on screen decodes to the holder’s signed code', async ({ page, context }) => {
  await signInContext(context, 'alice@example.com');
  await openPanel(page, 'PANEL_TAB=QR');
  // The QR screen's image: the first QR drawn before the app (features/qr/first-qr.ts) leaves once it is shown.
  const img = page.locator('#root img.qr-box__img');
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

  const drawn = await img.evaluate((el: HTMLImageElement) => ({
    natural: el.naturalWidth,
    shown: el.getBoundingClientRect().width,
    rendering: getComputedStyle(el).imageRendering,
  }));
  expect(drawn.natural).toBeLessThan(100); // one pixel per module, not a 396 px PNG
  expect(drawn.shown).toBeGreaterThan(drawn.natural * 3);
  expect(drawn.rendering).toBe('pixelated');

  const shot = PNG.sync.read(await img.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height);
  expect(decoded?.data).toMatch(/^TP2\.[A-Za-z0-9_-]{98}$/);
});
