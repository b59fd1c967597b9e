/**
 * Before the organiser's passRevealAt (issue 21 point 5) the QR screen shows no code: it says when the pass
 * appears, in the event's time zone, never asks the server for a QR image, and forgets a device pass stored
 * before (issue 30: the first QR drawn before the app must find none).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderPanel } from '../../../test/render';
import { fakeApi, jsonResponse } from '../../../test/fetch';
import QrScreen from './qr-screen';

const forgotten = vi.hoisted(() => ({ count: 0 }));
vi.mock('../pass/device-pass', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadDevicePass: () => Promise.resolve(null),
  renewDevicePass: () => Promise.reject(new Error('no Ed25519 in jsdom')),
  forgetDevicePass: () => {
    forgotten.count++;
    return Promise.resolve();
  },
}));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('QR screen before the pass is revealed', () => {
  it('says when the pass appears and requests no QR', async () => {
    localStorage.setItem('tp.accessToken', 'token');
    const asked: string[] = [];
    fakeApi(({ path }) => {
      asked.push(path);
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse([]);
      if (path === '/auth/access/qrCodeData')
        return jsonResponse({ ttl: 30, passRevealAt: '2030-03-06T08:00:00.000Z' });
      return jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const note = await screen.findByTestId('pass-reveal');
    expect(note.textContent).toMatch(
      /^Your pass appears on [A-Z][a-z]{2}, 0[5-7] Mar 2030, \d{1,2}:\d{2} [AP]M( [A-Z+\d-]+)?\.$/,
    );
    expect(screen.queryByRole('img', { name: 'Your entry QR code' })).toBeNull();
    expect(asked).not.toContain('/auth/access/qr');
    // A pass stored before (another event's) is forgotten: the next start draws none before the app (issue 30).
    expect(forgotten.count).toBeGreaterThan(0);
  });
});
