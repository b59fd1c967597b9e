/**
 * Issue 43: the console's dates go through the contract's formatter, as its other lists show them ("Sun, 29 Nov,
 * 12:30 AM" / "dom, 29 nov 00:30"), not the browser's `toLocaleString` ("29/11/2026, 12:30:00 am"): a webhook's
 * deliveries, and an event dashboard's conflicts (in the event's zone) and busiest 5 minutes. The API is a stub
 * `fetch`.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatTime } from '@tp/contract/format';
import { initConsoleI18n } from './i18n';
import { consoleTime } from './zoned-time';
import { WebhooksScreen } from './webhooks/components/webhooks-screen';
import { Dashboard } from './events/components/dashboard';

// The chart (uPlot on a canvas) is not what is read here.
vi.mock('./events/components/check-in-chart', () => ({ default: () => null }));

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const AT = '2026-11-28T13:30:00Z';
const LATER = '2026-11-28T14:05:00Z';
const ZONE = 'Pacific/Auckland';

function answer(routes: Record<string, unknown>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = Object.keys(routes).find((p) => input.split('?')[0] === p);
      return Promise.resolve(path ? json(routes[path]) : new Response('{}', { status: 404 }));
    }),
  );
}
const renderWith = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {ui}
    </QueryClientProvider>,
  );

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the console's dates, through the contract's formatter", () => {
  it("writes a webhook delivery's time as the other lists do", async () => {
    answer({
      '/v1/org/webhooks': [{ id: 1, url: 'https://hooks.example/in', events: ['ticket.issued'], createdAt: AT }],
      '/v1/org/webhooks/1/deliveries': {
        items: [
          {
            id: 9,
            messageId: 'msg_1',
            eventType: 'ticket.issued',
            status: 'delivered',
            attempts: 1,
            lastStatusCode: 200,
            lastError: null,
            createdAt: AT,
          },
        ],
        nextCursor: null,
      },
    });
    renderWith(<WebhooksScreen endpoint={1} />);
    const row = (await screen.findByText('ticket.issued', { selector: 'code' })).closest('tr')!;
    expect(within(row).getByText(consoleTime(AT))).toBeTruthy();
  });

  it("writes the dashboard's conflicts in the event's zone and its busiest 5 minutes as a time of day", async () => {
    answer({
      '/v1/org/events/evt-1/attendance': {
        issued: 2,
        checkedIn: 1,
        listedForResale: 0,
        resold: 0,
        insideByZone: [],
        entriesByDay: [],
      },
      '/v1/org/events/evt-1/check-ins': {
        from: '2026-11-28T12:00:00Z',
        to: '2026-11-29T12:00:00Z',
        bucketSeconds: 300,
        buckets: [{ at: AT, count: 1 }],
        conflicts: [{ ticketExternalId: 'T-1', reason: 'already_used', scannedAt: AT, syncedAt: LATER }],
      },
    });
    const event = { externalId: 'evt-1', name: 'Harbour Nights', timeZone: ZONE } as Parameters<
      typeof Dashboard
    >[0]['event'];
    renderWith(<Dashboard event={event} onBack={() => {}} />);
    const row = (await screen.findByText('T-1')).closest('tr')!;
    expect(within(row).getByText(consoleTime(AT, ZONE))).toBeTruthy();
    expect(within(row).getByText(consoleTime(LATER, ZONE))).toBeTruthy();
    expect(screen.getByTestId('chart-summary').textContent).toContain(`at ${formatTime(AT, ZONE, 'en')}.`);
  });
});
