/**
 * Issue 48: a door key's mode and zone in the console against a stub API: a new key is an entry door of the general
 * doors unless the organiser picks Exit or types a zone (POST /v1/org/door-keys `mode`, `zone`), and the list shows
 * each key's mode and zone.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { doorKeys } from '@tp/contract';
import { initConsoleI18n } from '../../i18n';
import { jsonResponse as json } from '../../../test/fetch';
import { DoorKeys } from './door-keys';

const aKey = (over: Partial<doorKeys.DoorKeyItem>): doorKeys.DoorKeyItem => ({
  id: 1,
  name: 'North gate',
  prefix: 'dk_abcd',
  eventExternalIds: null,
  mode: 'entry',
  zone: null,
  createdAt: '2027-03-01T08:00:00Z',
  ...over,
});

let posts: unknown[];

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  posts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        posts.push(JSON.parse(init.body));
        return Promise.resolve(json({ id: 3, key: 'dk_new_secret' }, 201));
      }
      return Promise.resolve(
        json([aKey({}), aKey({ id: 2, name: 'VIP exit', prefix: 'dk_efgh', mode: 'exit', zone: 'VIP' })]),
      );
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DoorKeys />
    </QueryClientProvider>,
  );
const create = async (name: string, mode?: 'entry' | 'exit', zone?: string) => {
  fireEvent.change(screen.getByLabelText('Name (e.g. North gate)'), { target: { value: name } });
  if (mode) fireEvent.change(screen.getByLabelText('Mode'), { target: { value: mode } });
  if (zone)
    fireEvent.change(screen.getByLabelText('Zone (e.g. VIP; empty: the general doors)'), { target: { value: zone } });
  fireEvent.click(screen.getByRole('button', { name: 'Create door key' }));
  await screen.findByText('dk_new_secret');
};

describe("a door key's mode and zone (issue 48)", () => {
  it('lists each key with its mode and zone', async () => {
    mount();
    const vip = (await screen.findByText('VIP exit')).closest('tr')!;
    expect(within(vip).getByText('Exit: scans people out')).toBeTruthy();
    expect(within(vip).getByText('VIP')).toBeTruthy();
    const north = screen.getByText('North gate').closest('tr')!;
    expect(within(north).getByText('Entry: scans people in')).toBeTruthy();
    expect(within(north).getByText('General doors')).toBeTruthy();
  });

  it('a new key is an entry door of the general doors by default; an exit door of a zone when chosen', async () => {
    mount();
    await create('North gate');
    expect(posts[0]).toEqual({ name: 'North gate', mode: 'entry' });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await create('VIP exit', 'exit', ' VIP ');
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toEqual({ name: 'VIP exit', mode: 'exit', zone: 'VIP' });
    // The form is back to its defaults after a key is made.
    expect(screen.getByLabelText<HTMLSelectElement>('Mode').value).toBe('entry');
  });
});
