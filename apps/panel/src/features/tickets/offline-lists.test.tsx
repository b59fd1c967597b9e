/**
 * Offline lists (issue 20 point 7): tickets and ticket pages seen online stay readable offline (the query
 * persistence of lib/query-persistence.ts, restored into a new query client as at the next start), and a
 * failure for lack of network says "You're offline", a request the API shed says it is busy, not "Request failed".
 */
import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createTestQueryClient, renderPanel } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import { aTicket, signedInForEachTest } from '../../test/fixtures';
import { queryKeys } from '../../lib/query-keys';
import { QUERY_CACHE_KEY, clearOfflineData } from '../../lib/offline-data';
import { startQueryPersistence } from '../../lib/query-persistence';
import MyTicketsScreen from './components/my-tickets-screen';
import TicketScreen from './components/ticket-screen';

const tk = aTicket(7);
const config = { assetsBaseUrl: '', orgWebsite: null };

const offline = () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  fakeApi(() => {
    throw new TypeError('Failed to fetch');
  });
};

signedInForEachTest();

/** My tickets, and ticket 7's page, rendered with the given query client. */
const showList = (queryClient?: QueryClient) =>
  renderPanel(<MyTicketsScreen />, { search: 'PANEL_TAB=MY_TICKET', queryClient, data: [[queryKeys.config, config]] });
const showTicket = (queryClient: QueryClient) =>
  renderPanel(<TicketScreen />, {
    search: 'PANEL_TAB=TICKET&USER_TICKET_ID=7',
    queryClient,
    data: [[queryKeys.config, config]],
  });

describe('offline lists', () => {
  it('a failure for lack of network says "You\'re offline"', async () => {
    offline();
    showList();
    expect(await screen.findByText("You're offline. Connect to the internet and try again.")).toBeTruthy();
    expect(screen.queryByText('Request failed.')).toBeNull();
  });

  it('a request the API shed (503 api.busy, decision 039) says "very busy, try again", not "Request failed"', async () => {
    fakeApi(() => jsonResponse({ message: 'api.busy' }, 503));
    showList();
    // Shown once the call shed twice: it is sent again after the advised wait (1 s without Retry-After, with jitter).
    expect(
      await screen.findByText("We're very busy right now. Please try again in a few seconds.", undefined, {
        timeout: 5000,
      }),
    ).toBeTruthy();
    expect(screen.queryByText('Request failed.')).toBeNull();
  });

  it('tickets and a ticket page seen online are readable offline at the next start; logout removes them', async () => {
    // Online: the list and the ticket page are fetched and shown.
    fakeApi(({ path }) => {
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse([tk]);
      if (path === '/list/ticket_listing/7') return jsonResponse(tk);
      return jsonResponse({ message: 'api.not_found' }, 404);
    });
    const online = createTestQueryClient();
    await startQueryPersistence(online);
    const first = showList(online);
    expect(await screen.findByText('Harbour Lights Festival')).toBeTruthy();
    first.unmount();
    showTicket(online);
    expect(await screen.findByRole('heading', { name: /Harbour Lights Festival/ })).toBeTruthy();
    cleanup();
    await waitFor(() => expect(localStorage.getItem(QUERY_CACHE_KEY)).toContain('Harbour Lights Festival'), {
      timeout: 3000,
    });

    // Next start, no network: both are shown from what was kept.
    offline();
    const restarted = createTestQueryClient();
    await startQueryPersistence(restarted);
    const list = showList(restarted);
    expect(await screen.findByText('Harbour Lights Festival')).toBeTruthy();
    expect(screen.queryByText(/Request failed|You're offline/)).toBeNull();
    list.unmount();
    showTicket(restarted);
    expect(await screen.findByRole('heading', { name: /Harbour Lights Festival/ })).toBeTruthy();
    expect(screen.queryByText(/Request failed|You're offline/)).toBeNull();

    // Logout removes them.
    clearOfflineData();
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });
});
