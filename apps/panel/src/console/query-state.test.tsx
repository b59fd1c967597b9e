/**
 * A console screen's loading, error and empty states (query-state.tsx), on the Keys screen with the API answered
 * by a stub `fetch`: "Loading…" while a list has not answered, the API's message (role=alert) with Try again when
 * it failed, the screen's empty text once it answered with nothing, and the rows once it has some.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initConsoleI18n } from './i18n';
import { KeysScreen } from './keys/components/keys-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initConsoleI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('console query states', () => {
  it('shows Loading…, then the error with Try again, then the empty text or the rows', async () => {
    let doorKeyAnswers = 0;
    let releaseApiKeys: (r: Response) => void = () => {};
    const fetchStub = vi.fn((input: string) => {
      if (input.startsWith('/v1/org/door-keys')) {
        doorKeyAnswers += 1;
        return Promise.resolve(doorKeyAnswers === 1 ? json(429, { message: 'api.too_many_requests' }) : json(200, []));
      }
      if (input.startsWith('/v1/org/api-keys')) return new Promise<Response>((r) => (releaseApiKeys = r));
      return Promise.resolve(json(404, { message: 'api.not_found' }));
    });
    vi.stubGlobal('fetch', fetchStub);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <KeysScreen owner />
      </QueryClientProvider>,
    );
    // Each section (the first region of its name) holds its table's region.
    const [doorKeys] = screen.getAllByRole('region', { name: 'Door keys' });
    const [apiKeys] = screen.getAllByRole('region', { name: 'API keys' });
    expect(within(apiKeys).getByRole('status').textContent).toBe('Loading…');

    // The door keys' list failed: the API's message, and Try again asks again.
    const alert = await within(doorKeys).findByRole('alert');
    expect(alert.textContent).toContain('Too many requests. Wait a moment and try again.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(doorKeys).getByText('No keys yet.')).toBeTruthy());
    expect(within(doorKeys).queryByRole('alert')).toBeNull();
    expect(doorKeyAnswers).toBe(2);

    // The API keys answer with one live key: its row, and no loading or empty text.
    releaseApiKeys(json(200, [{ id: 7, prefix: 'tp_live_ab12', createdAt: '2027-01-01T00:00:00Z', expiresAt: null }]));
    await waitFor(() => expect(within(apiKeys).getByText('tp_live_ab12')).toBeTruthy());
    expect(within(apiKeys).queryByRole('status')).toBeNull();
    expect(within(apiKeys).queryByText('No keys yet.')).toBeNull();
  });
});
