/**
 * "Your data" on the account tab (issue 13): export downloads the server's JSON under its dated name,
 * sign out of other devices calls the API, delete asks first, shows a refusal's reason in the dialog
 * and, once deleted, ends the session here and goes to the sign-in screen.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client';
import { clientHooks } from '../../../lib/api-client';
import { initI18n, loadLaterTexts } from '../../../lib/i18n';
import { AccountData } from './account-data';

const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

let calls: { path: string; method: string }[];
let deleteAnswer: Response;

function mount() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountData />
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
  await loadLaterTexts();
});
beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  localStorage.setItem('tp.refreshToken', 'refresh');
  window.history.replaceState(null, '', '/en/?PANEL_TAB=SETTINGS');
  calls = [];
  deleteAnswer = new Response(null, { status: 204 });
  clientHooks.fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const path = url.replace('/v1', '');
    calls.push({ path, method: init?.method ?? 'GET' });
    const answer =
      path === '/auth/export'
        ? json({ exportedAt: '2026-11-23T10:00:00.000Z', profile: { email: 'a@b.c' } })
        : path === '/auth/logout-others'
          ? json({ revoked: 2 })
          : path === '/auth/account'
            ? deleteAnswer
            : json({ message: 'api.not_found' }, 404);
    return Promise.resolve(answer);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('your data', () => {
  it('exports the data as a dated JSON download', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    mount();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Export my data' }));
      await Promise.resolve();
    });
    expect(calls).toContainEqual({ path: '/auth/export', method: 'GET' });
    expect(clicked).toEqual(['my-data-2026-11-23.json']);
    expect(JSON.parse(await created[0].text())).toMatchObject({ profile: { email: 'a@b.c' } });
  });

  it('signs out of other devices', async () => {
    mount();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out of other devices' }));
      await Promise.resolve();
    });
    expect(calls).toContainEqual({ path: '/auth/logout-others', method: 'POST' });
    expect(localStorage.getItem('tp.accessToken')).toBe('token');
  });

  it('asks before deleting and shows why the server refused', async () => {
    deleteAnswer = json({ message: 'api.account.has_upcoming_tickets' }, 409);
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(calls.some((c) => c.path === '/auth/account')).toBe(false);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
      await Promise.resolve();
    });
    expect(calls).toContainEqual({ path: '/auth/account', method: 'DELETE' });
    expect(within(dialog).getByRole('alert').textContent).toMatch(/You still hold tickets to upcoming events/);
    expect(localStorage.getItem('tp.accessToken')).toBe('token');
  });

  it('tells the only owner of an organisation to add another owner first (issue 39)', async () => {
    deleteAnswer = json({ message: 'api.account.last_owner' }, 409);
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
      await Promise.resolve();
    });
    expect(within(dialog).getByRole('alert').textContent).toMatch(/only owner of an organisation.*another owner/);
    expect(localStorage.getItem('tp.accessToken')).toBe('token');
  });

  it('once deleted, ends the session here and goes to the sign-in screen', async () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
      await Promise.resolve();
    });
    expect(localStorage.getItem('tp.accessToken')).toBeNull();
    expect(localStorage.getItem('tp.refreshToken')).toBeNull();
    expect(new URLSearchParams(window.location.search).get('PANEL_TAB')).toBe('LOGIN');
  });
});
