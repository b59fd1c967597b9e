/**
 * The QR screen tells the truth (issue 10 point 2): offline with a valid device pass it shows the
 * device's code, the offline notice and a countdown; an expired pass shows the stale state; with no pass
 * and no network it shows an error whose retry tries again; another account's stored pass is never shown
 * (issue 30). The device key store and the QR drawing are
 * replaced (jsdom has neither IndexedDB nor a canvas); the real flow runs in e2e/offline-pass.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderPanel } from '../../../test/render';
import { fakeApi, jsonResponse, serverPassAnswer } from '../../../test/fetch';
import { encodeCertificate, toBase64Url } from '@tp/contract/pass-code';
import type * as DevicePassModule from '../pass/device-pass';
import type { DevicePass } from '../pass/device-pass';
import QrScreen from './qr-screen';

const store = vi.hoisted(() => ({
  pass: null as DevicePass | null,
  loads: 0,
  renew: (): Promise<DevicePass> => Promise.reject(new Error('offline')),
}));
vi.mock('../pass/device-pass', async (importOriginal) => {
  const real = await importOriginal<typeof DevicePassModule>();
  return {
    ...real,
    loadDevicePass: () => {
      store.loads++;
      return Promise.resolve(store.pass);
    },
    renewDevicePass: () => store.renew(),
    deviceCodeFor: (_pass: DevicePass, step: number) => Promise.resolve(`TP2.step-${step}`),
  };
});
vi.mock('../pass/draw-qr', () => ({ qrDataUrl: (code: string) => `data:image/png;base64,${btoa(code)}` }));

/** A signed certificate (120 bytes, base64url) of `userId`'s device. */
function certificateOf(userId: number): string {
  const signed = new Uint8Array(120);
  signed.set(
    encodeCertificate({
      userId,
      sessionId: '0b8f6c4e-8a55-4d7b-9a4e-2f7d7c1b2a3c',
      devicePublicKey: new Uint8Array(32),
      expiresAt: Math.floor(Date.now() / 1000) + 86_400,
    }),
  );
  return toBase64Url(signed);
}
/** The signed-in account's access token (only its `sub` is read by the panel). */
const TOKEN_OF_7 = `h.${btoa(JSON.stringify({ sub: '7', sid: 's' })).replace(/=+$/, '')}.s`;

const passFor = (expiresInMs: number, userId = 7): DevicePass => ({
  privateKey: {} as CryptoKey,
  certificate: certificateOf(userId),
  expiresAtMs: Date.now() + expiresInMs,
  issuedAtMs: Date.now() - 1000,
  ttl: 30,
  clockOffsetMs: 0,
});

beforeEach(() => {
  store.pass = null;
  store.loads = 0;
  store.renew = () => Promise.reject(new Error('offline'));
  localStorage.setItem('tp.accessToken', TOKEN_OF_7);
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  fakeApi(() => {
    throw new TypeError('Failed to fetch'); // no network
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('QR screen offline', () => {
  it('shows the code signed on the device, the offline notice and a countdown', async () => {
    store.pass = passFor(3600_000);
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const img = await screen.findByRole('img', { name: 'Your entry QR code' });
    expect(img.getAttribute('data-pass-kind')).toBe('device');
    const step = Math.floor(Date.now() / 30_000);
    expect(atob(img.getAttribute('src')!.split(',')[1])).toMatch(
      new RegExp(`^TP2\\.step-(${step - 1}|${step}|${step + 1})$`),
    );
    expect(screen.getByText('Offline — your pass still works')).toBeTruthy();
    expect(screen.getByTestId('qr-countdown').textContent).toMatch(/^New code in ([1-9]|[12]\d|30) s$/);
  });

  it('shows the stale state when the device pass has expired', async () => {
    store.pass = passFor(-1000);
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    expect(await screen.findByText(/Your offline pass has expired/)).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Your entry QR code' })).toBeNull();
  });

  it('says plainly that it needs signal when no pass can be produced, and the retry tries again', async () => {
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    expect(await screen.findByText(/Your pass needs signal to show a new code/)).toBeTruthy();
    expect(screen.queryByText("We couldn't produce your pass.")).toBeNull();
    const before = store.loads;
    store.pass = passFor(3600_000);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(store.loads).toBeGreaterThan(before));
    expect(await screen.findByRole('img', { name: 'Your entry QR code' })).toBeTruthy();
  });
  it('never shows another account’s stored pass (issue 30): offline it says it needs signal', async () => {
    store.pass = passFor(3600_000, 8);
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    expect(await screen.findByText(/Your pass needs signal to show a new code/)).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Your entry QR code' })).toBeNull();
  });
});

describe('QR screen on lie-fi (issue 30)', () => {
  it('draws the stored device pass at once while its renewal and every request still wait on the network', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    fakeApi(() => new Promise<Response>(() => undefined)); // the link answers nothing (yet)
    let renewals = 0;
    store.renew = () => {
      renewals++;
      return new Promise<DevicePass>(() => undefined);
    };
    // Past half its life (so due for renewal) and still valid for an hour.
    store.pass = { ...passFor(3600_000), issuedAtMs: Date.now() - 3 * 3600_000 };
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const img = await screen.findByRole('img', { name: 'Your entry QR code' });
    expect(img.getAttribute('data-pass-kind')).toBe('device');
    expect(renewals).toBeGreaterThan(0);
  });
});

describe('QR screen without a device pass (issue 20: an embed with no storage, no Ed25519)', () => {
  it('keeps the last server code with a countdown while the door takes it, then says it needs signal', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      let network = true;
      fakeApi(({ path }) => {
        if (!network) throw new TypeError('Failed to fetch');
        return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
      });
      renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
      await waitFor(() =>
        expect(screen.getByRole('img', { name: 'Your entry QR code' }).getAttribute('data-pass-kind')).toBe('server'),
      );
      // The signal goes: no device pass here (renewDevicePass fails, nothing stored).
      network = false;
      online.mockReturnValue(false);
      act(() => void window.dispatchEvent(new Event('offline')));
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      const img = screen.getByRole('img', { name: 'Your entry QR code' });
      expect(img.getAttribute('data-pass-kind')).toBe('server');
      expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
      expect(screen.getByTestId('qr-countdown').textContent).toMatch(
        /^Offline — this code works for (1\d|2\d|30) s more$/,
      );
      expect(screen.queryByText("We couldn't produce your pass.")).toBeNull();
      // Past a ttl after it was fetched the door would refuse it: it goes, and the screen says why.
      await act(() => vi.advanceTimersByTimeAsync(25_000));
      expect(screen.queryByRole('img', { name: 'Your entry QR code' })).toBeNull();
      expect(screen.getByText(/Your pass needs signal to show a new code/)).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('QR screen online', () => {
  it('shows the server image while it is fresh', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    fakeApi(({ path }) => {
      return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Your entry QR code' }).getAttribute('data-pass-kind')).toBe('server'),
    );
    expect(screen.queryByText('Offline — your pass still works')).toBeNull();
  });
});
