/**
 * "Passkeys" on the account tab (issue 47): the list with its dates, "Add a passkey" (added, cancelled by the browser,
 * refused by the API), "Remove" asked first, the empty state, a failed load with Retry, and a browser without
 * passkeys. The browser's half (lib/webauthn) is mocked; the API through the client's fetch.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createQueryClient } from '../../../lib/query-client';
import { clientHooks } from '../../../lib/api-client';
import { initI18n, loadLaterTexts } from '../../../lib/i18n';
import { formatWhen } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { withTexts } from './account-passkeys';

const webauthn = vi.hoisted(() => ({ supported: true, create: vi.fn() }));
vi.mock('../../../lib/webauthn', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  passkeysSupported: () => webauthn.supported,
  createPasskey: webauthn.create,
}));
const { PasskeyCancelled } = await import('../../../lib/webauthn');

const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const phone = {
  id: 'cred-1',
  name: 'Chrome · Android',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: '2026-11-25T21:53:00.000Z',
  backedUp: true,
};
const laptop = {
  id: 'cred-2',
  name: 'Safari · macOS',
  createdAt: '2026-11-28T10:00:00.000Z',
  lastUsedAt: null,
  backedUp: false,
};
const OPTIONS = {
  challenge: 'c',
  rp: { name: 'x' },
  user: { id: 'u', name: 'a', displayName: 'a' },
  pubKeyCredParams: [],
};

let calls: { path: string; method: string }[];
let list: unknown[];
let listAnswer: () => Response;
let registerAnswer: () => Response;
let AccountPasskeys: ComponentType;
let said: { success: string[]; error: string[] };

function mount() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountPasskeys />
    </QueryClientProvider>,
  );
}
const section = () => screen.getByRole('region', { name: 'Passkeys' });

beforeAll(async () => {
  await initI18n('en');
  await loadLaterTexts();
  AccountPasskeys = (await withTexts()).default;
});
beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  webauthn.supported = true;
  webauthn.create.mockReset();
  calls = [];
  said = { success: [], error: [] };
  vi.spyOn(toast, 'success').mockImplementation((text) => (said.success.push(text as string), '1'));
  vi.spyOn(toast, 'error').mockImplementation((text) => (said.error.push(text as string), '1'));
  list = [phone, laptop];
  listAnswer = () => json(list);
  registerAnswer = () => json(laptop);
  clientHooks.fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const path = url.slice(url.indexOf('/v1/')).replace('/v1', '');
    const method = init?.method ?? 'GET';
    calls.push({ path, method });
    const answer =
      path === '/auth/passkeys' && method === 'GET'
        ? listAnswer()
        : path === '/auth/passkeys/register/options'
          ? json({ options: OPTIONS })
          : path === '/auth/passkeys/register'
            ? registerAnswer()
            : path.startsWith('/auth/passkeys/') && method === 'DELETE'
              ? new Response(null, { status: 204 })
              : json({ message: 'api.not_found' }, 404);
    return Promise.resolve(answer);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('passkeys in Settings', () => {
  it("lists the account's passkeys with when each was added and last used", async () => {
    mount();
    expect(await screen.findByText('Chrome · Android')).toBeTruthy();
    const s = section();
    expect(
      within(s).getByText('Sign in with your fingerprint, face or screen lock instead of a code by e-mail.'),
    ).toBeTruthy();
    expect(s.textContent).toContain(`Added ${formatWhen(phone.createdAt)} · Last used ${formatWhen(phone.lastUsedAt)}`);
    expect(s.textContent).toContain(`Added ${formatWhen(laptop.createdAt)} · Never used`);
    expect(within(s).getByRole('button', { name: 'Remove Safari · macOS' })).toBeTruthy();
  });

  it('adds a passkey: the browser makes it, the server keeps it, "Passkey added", the list refreshed', async () => {
    list = [phone];
    webauthn.create.mockImplementation(() => {
      list = [laptop, phone];
      return Promise.resolve({ id: 'cred-2' });
    });
    mount();
    await screen.findByText('Chrome · Android');
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
      return Promise.resolve();
    });
    expect(webauthn.create).toHaveBeenCalledWith(OPTIONS);
    expect(calls).toContainEqual({ path: '/auth/passkeys/register', method: 'POST' });
    expect(await screen.findByText('Safari · macOS')).toBeTruthy();
    expect(said).toEqual({ success: ['Passkey added'], error: [] });
  });

  it('a passkey the browser did not make is said calmly, not as an error', async () => {
    webauthn.create.mockRejectedValue(new PasskeyCancelled());
    mount();
    await screen.findByText('Chrome · Android');
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
      return Promise.resolve();
    });
    expect(within(section()).getByRole('status').textContent).toBe('No passkey was added.');
    expect(calls.some((c) => c.path === '/auth/passkeys/register')).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(said).toEqual({ success: [], error: [] });
  });

  it("the server's refusal is said in its words", async () => {
    webauthn.create.mockResolvedValue({ id: 'cred-3' });
    registerAnswer = () => json({ message: 'api.auth.passkey_limit' }, 409);
    mount();
    await screen.findByText('Chrome · Android');
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
      return Promise.resolve();
    });
    await vi.waitFor(() =>
      expect(said.error).toEqual(['You have as many passkeys as an account can hold. Remove one first.']),
    );
    expect(within(section()).queryByRole('status')).toBeNull();
  });

  it('asks before removing a passkey, then removes it and refreshes the list', async () => {
    mount();
    await screen.findByText('Chrome · Android');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Chrome · Android' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this passkey?' });
    expect(dialog.textContent).toContain('Chrome · Android will no longer sign you in.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    list = [laptop];
    await act(() => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
      return Promise.resolve();
    });
    expect(calls).toContainEqual({ path: '/auth/passkeys/cred-1', method: 'DELETE' });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(said.success).toEqual(['Passkey removed']);
    expect(screen.queryByText('Chrome · Android')).toBeNull();
  });

  it('says when there is none yet', async () => {
    list = [];
    mount();
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
  });

  it('a failed load shows an error with Retry, which asks again', async () => {
    listAnswer = () => json({ message: 'api.internal_error' }, 500);
    mount();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Your passkeys could not be loaded.');
    listAnswer = () => json(list);
    await act(() => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
      return Promise.resolve();
    });
    expect(await screen.findByText('Chrome · Android')).toBeTruthy();
  });

  it('a browser without passkeys is told so instead of "Add a passkey"', async () => {
    webauthn.supported = false;
    mount();
    await screen.findByText('Chrome · Android');
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(screen.getByText('This browser cannot use passkeys.')).toBeTruthy();
  });
});
