/**
 * The offline pass in the embedded panel (issue 20 point 2, decision 010): the holder signs in inside the
 * modal on the organiser's page (the demo host on localhost framing the panel from 127.0.0.1, another
 * site), the phone loses signal, and the QR keeps rotating: at each of several time steps the image on
 * screen, read with jsQR, is a new device code the door admits. Two situations:
 * - the device key and certificate in the frame's IndexedDB (partitioned by the top-level site), or, where
 *   the browser gives the frame no storage (third-party storage blocked, as this Chromium does in a
 *   Playwright context), in the frame's memory for as long as the panel is open;
 * - no device pass possible (no Ed25519 in WebCrypto, simulated): the last server code stays with its
 *   countdown until it expires, then the screen says it needs signal.
 *
 * The e2e server runs with QR_TTL_SECONDS=3 (global-setup.ts). The door is asked about alice's live
 * event, whose ticket the seed has already admitted: a valid pass answers 200 with `alreadyUsed`.
 */
import { expect, test } from './fixtures';
import { checkIn, expectRotatingDeviceCodes, isServerCode, liveEventId, shownCode, signInEmbedded } from './embed-pass';

test('embedded on an organiser’s page: the pass rotates offline and the door admits each code', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const frame = await signInEmbedded(page);
  // Which storage this browser gives the framed panel (Chromium here, a Playwright context: none, as with
  // third-party cookies blocked; Chrome's default: partitioned IndexedDB). The pass works with either.
  const storage = await frame.locator('body').evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('tp-storage-probe');
        open.onsuccess = () => (
          open.result.close(),
          indexedDB.deleteDatabase('tp-storage-probe'),
          resolve('indexeddb')
        );
        open.onerror = () => resolve('none');
      }),
  );
  test.info().annotations.push({ type: 'frame storage', description: storage });
  // The device pass is certified right after the QR screen shows; then the phone loses signal.
  await expect(frame.getByTestId('qr-countdown')).toHaveText(/New code in \d+ s/);
  await page.waitForTimeout(1500);
  await context.setOffline(true);
  await expectRotatingDeviceCodes(frame);
});

test('no device pass in this browser: the last server code stays with its countdown, then the screen says it needs signal', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  // A browser without Ed25519 in WebCrypto (in every frame): no device key can be made.
  await context.addInitScript(() => {
    const generate = crypto.subtle.generateKey.bind(crypto.subtle);
    crypto.subtle.generateKey = ((alg: AlgorithmIdentifier, ...rest: unknown[]) =>
      (typeof alg === 'string' ? alg : alg.name) === 'Ed25519'
        ? Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError'))
        : (generate as (...a: unknown[]) => Promise<unknown>)(alg, ...rest)) as typeof crypto.subtle.generateKey;
  });
  const frame = await signInEmbedded(page);
  const event = await liveEventId();
  // Wait for a freshly fetched code (a countdown at 3, the ttl), then lose signal.
  await expect(frame.getByTestId('qr-countdown')).toHaveText('New code in 3 s', { timeout: 10_000 });
  await context.setOffline(true);
  // The server code stays, with a countdown of how long it still works, and the door admits it.
  await expect(frame.locator('img.qr-box__img')).toHaveAttribute('data-pass-kind', 'server');
  await expect(frame.getByTestId('qr-countdown')).toHaveText(/Offline — this code works for \d+ s more/);
  const code = await shownCode(frame);
  expect(isServerCode(code), code).toBe(true);
  expect((await checkIn(code, event)).status).toBe(200);
  // Once it has expired, no stale code and no generic error: the screen says it needs signal.
  await expect(frame.getByText('Your pass needs signal', { exact: false })).toBeVisible({ timeout: 10_000 });
  await expect(frame.locator('img.qr-box__img')).toHaveCount(0);
  await expect(frame.getByText('We couldn’t produce your pass')).toHaveCount(0);
  // Back online, the pass comes back by itself (the next poll), or with Try again.
  await context.setOffline(false);
  await expect(frame.locator('img.qr-box__img')).toBeVisible({ timeout: 15_000 });
});
