/**
 * Issue 48: the event dashboard's live counts against a stub API: who is inside per zone (the general doors first)
 * and the entries per event-local day, read again every 5 seconds while open (a scan at a door shows within that);
 * Loading before the first answer, the empty texts, the error with Try again; the offline doors' conflicts still
 * listed, with the entry rules' reasons in words.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initConsoleI18n } from '../../i18n';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';
import { LIVE_MS, type Attendance } from '../api/attendance.api';
import { Dashboard } from './dashboard';

// The chart (uPlot, a canvas) is not what these tests look at.
vi.mock('./check-in-chart', () => ({ default: () => null }));

const event = aConsoleEvent({ startsAt: '2027-07-09T08:00:00Z', endsAt: '2027-07-10T15:00:00Z' });

const counts = (over: Partial<Attendance> = {}): Attendance => ({
  issued: 100,
  checkedIn: 40,
  listedForResale: 0,
  resold: 0,
  insideByZone: [
    { zone: 'VIP', inside: 5 },
    { zone: null, inside: 31 },
  ],
  entriesByDay: [
    { day: '2027-07-09', entries: 38 },
    { day: '2027-07-10', entries: 12 },
  ],
  ...over,
});

let attendance: () => Response;

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  attendance = () => json(counts());
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url === '/v1/org/events/evt-1/attendance') return Promise.resolve(attendance());
      return Promise.resolve(
        json({
          from: event.startsAt,
          to: event.endsAt,
          buckets: [],
          conflicts: [
            {
              ticketExternalId: 'T-9',
              reason: 'wrong_zone',
              scannedAt: '2027-07-09T09:00:00Z',
              syncedAt: '2027-07-09T09:05:00Z',
            },
          ],
        }),
      );
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const mount = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Dashboard event={event} onBack={() => {}} />
    </QueryClientProvider>,
  );

describe("the dashboard's live counts (issue 48)", () => {
  it('shows who is inside per zone, general doors first, and the entries per day', async () => {
    mount();
    expect(screen.getAllByRole('status')[0].textContent).toBe('Loading…');
    expect(await screen.findByTestId('inside-general')).toHaveProperty('textContent', '31');
    expect(screen.getByTestId('inside-VIP').textContent).toBe('5');
    const zones = within(screen.getByRole('region', { name: 'Inside now' }));
    expect(zones.getAllByRole('term').map((dt) => dt.textContent)).toEqual(['General doors', 'VIP']);
    expect(screen.getByText(/^Updated every 5 seconds; last at/)).toBeTruthy();
    expect(screen.getByTestId('entries-2027-07-09').closest('tr')?.textContent).toContain('Fri, 9 July');
    expect(screen.getByTestId('entries-2027-07-09').textContent).toBe('38');
    expect(screen.getByTestId('entries-2027-07-10').textContent).toBe('12');
    // The offline doors' conflicts are listed as before, the entry rule's reason in words.
    expect(await screen.findByText("Not for that door's zone")).toBeTruthy();
  });

  it('reads the counts again every 5 seconds while open', async () => {
    expect(LIVE_MS).toBeLessThanOrEqual(5_000);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mount();
    expect(await screen.findByTestId('inside-VIP')).toHaveProperty('textContent', '5');
    attendance = () => json(counts({ insideByZone: [{ zone: 'VIP', inside: 6 }] }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIVE_MS);
    });
    expect(await screen.findByText('6')).toBeTruthy();
    expect(screen.queryByTestId('inside-general')).toBeNull();
  });

  it('says when nobody is inside and nobody entered yet', async () => {
    attendance = () => json(counts({ checkedIn: 0, insideByZone: [], entriesByDay: [] }));
    mount();
    expect(await screen.findByText('Nobody is inside now.')).toBeTruthy();
    expect(screen.getByText('No entries yet.')).toBeTruthy();
  });

  it('a failed read shows the error with Try again', async () => {
    attendance = () => json({ message: 'api.service_unavailable' }, 503);
    mount();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByText('Inside now')).toBeNull();
  });
});
