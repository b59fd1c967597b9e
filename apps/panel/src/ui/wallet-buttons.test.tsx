/**
 * The wallet badges (issue 22): only the configured wallets show; Google follows the save link the API answers;
 * Apple downloads the `.pkpass` fetched with the holder's token; a pass before its reveal time is a toast.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { queryKeys } from '../lib/query-keys';
import { renderPanel } from '../test/render';
import { toast } from '../lib/toast';
import { fakeApi, jsonResponse, type FakeRequest } from '../test/fetch';
import WalletButtons from './wallet-buttons';
import { aPanelConfig } from '../test/fixtures';

const config = aPanelConfig({ wallets: { apple: true, google: true } });
let calls: FakeRequest[];
let appleAnswer: () => Response;

const mount = (wallets: typeof config.wallets) =>
  renderPanel(<WalletButtons userTicketId={7} timeZone="Australia/Sydney" />, {
    data: [[queryKeys.config, { ...config, wallets }]],
  });

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  appleAnswer = () =>
    new Response(new Uint8Array([80, 75, 3, 4]), { headers: { 'content-type': 'application/vnd.apple.pkpass' } });
  fakeApi((request) => {
    calls.push(request);
    if (request.path === '/tickets/7/wallet/google')
      return jsonResponse({ saveUrl: 'https://pay.google.com/gp/v/save/jwt' });
    if (request.path === '/tickets/7/wallet/apple') return appleAnswer();
    return jsonResponse({ message: 'api.not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('wallet badges', () => {
  it('show only the configured wallets, none when neither is', () => {
    const { unmount } = mount({ apple: false, google: true });
    expect(screen.queryByRole('button', { name: 'Add to Apple Wallet' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add to Google Wallet' })).toBeTruthy();
    unmount();
    mount({ apple: false, google: false });
    expect(screen.queryByRole('group', { name: /wallet/i })).toBeNull();
  });

  it('Google opens the save link; Apple downloads the pass fetched with the token', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    mount({ apple: true, google: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Google Wallet' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://pay.google.com/gp/v/save/jwt', '_blank', 'noopener'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add to Apple Wallet' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const apple = calls.find((c) => c.path === '/tickets/7/wallet/apple');
    expect(apple?.headers.authorization).toBe('Bearer token');
  });

  it('a pass before its reveal time is a toast', async () => {
    appleAnswer = () =>
      jsonResponse({ message: 'api.wallet.not_yet_available', revealAt: '2026-12-01T09:00:00.000Z' }, 409);
    const error = vi.spyOn(toast, 'error').mockImplementation(() => '1');
    mount({ apple: true, google: false });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Apple Wallet' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith("Your wallet pass isn't available yet."));
  });
});
