/**
 * Issue 46: the console's refund requests against a stub API: the pending requests with Approve and Decline; approving
 * sends the optional reference and the list is read again; declining asks for a reason before anything is sent, then
 * sends it; a refusal shows in the confirm box; the status buttons read the other lists, with their empty text, and
 * the status shown is the URL's: a reload or a link opens it, and Back from another screen comes back to it.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RefundRequestItem } from '@tp/contract/refunds';
import { initConsoleI18n } from '../../i18n';
import { navigate, useConsoleRoute } from '../../routing';
import { RefundsScreen } from './refunds-screen';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const request: RefundRequestItem = {
  id: 12,
  status: 'pending',
  eventExternalId: 'harbour',
  eventName: 'Harbour Lights',
  ticketExternalId: 'T-1001',
  userTicketId: 4021,
  ticketTypeName: 'General Admission',
  holderEmail: 'ana@example.com',
  holderName: 'Ana Pérez',
  reason: 'I cannot make the new date.',
  declineReason: null,
  reference: null,
  createdAt: '2027-04-02T09:30:00.000Z',
  decidedAt: null,
};

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let pending: RefundRequestItem[];
let decide: () => Response;

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  window.history.replaceState(null, '', '/console/refunds');
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  calls = [];
  pending = [request];
  decide = () => {
    pending = [];
    return json({ ...request, status: 'approved', decidedAt: '2027-04-03T09:30:00.000Z' });
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      if (method === 'GET' && url === '/v1/org/refund-requests?status=pending')
        return Promise.resolve(json({ items: pending, nextCursor: null }));
      if (method === 'GET' && url.startsWith('/v1/org/refund-requests?'))
        return Promise.resolve(json({ items: [], nextCursor: null }));
      if (method === 'POST' && /^\/v1\/org\/refund-requests\/12\/(approve|decline)$/.test(url))
        return Promise.resolve(decide());
      return Promise.resolve(json({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The screen as the console shows it (console-app.tsx): while the URL names it, with the URL's status. */
function Routed() {
  const route = useConsoleRoute();
  return route.screen === 'refunds' ? <RefundsScreen status={route.status} /> : <p>Another screen</p>;
}
const mount = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Routed />
    </QueryClientProvider>,
  );
const pressed = () =>
  within(screen.getByRole('group', { name: 'Status' }))
    .getAllByRole('button')
    .filter((b) => b.getAttribute('aria-pressed') === 'true')
    .map((b) => b.textContent);
const table = () => screen.getByRole('region', { name: 'Refund requests' });
const confirm = () => screen.getByRole('alertdialog');
const posts = () => calls.filter((c) => c.method === 'POST');

describe("the console's refund requests", () => {
  it('lists the pending ones; approving sends the reference, then the list is read again', async () => {
    mount();
    await within(table()).findByText('Harbour Lights');
    expect(table().textContent).toContain('I cannot make the new date.');
    expect(table().textContent).toContain('ana@example.com');
    fireEvent.click(within(table()).getByRole('button', { name: 'Approve: ana@example.com' }));
    expect(confirm().textContent).toContain(
      "Approve the refund of Ana Pérez's General Admission ticket to Harbour Lights?",
    );
    fireEvent.change(within(confirm()).getByLabelText('Your refund reference (optional)'), {
      target: { value: ' SHOP-778 ' },
    });
    fireEvent.click(within(confirm()).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(posts()).toEqual([
      { method: 'POST', url: '/v1/org/refund-requests/12/approve', body: { reference: 'SHOP-778' } },
    ]);
    await within(table()).findByText('No requests wait for a decision.');
  });

  it('declining needs a reason before anything is sent; a refusal shows in the box', async () => {
    decide = () => json({ message: 'api.org.refund_request_decided' }, 409);
    mount();
    await within(table()).findByText('Harbour Lights');
    fireEvent.click(within(table()).getByRole('button', { name: 'Decline: ana@example.com' }));
    fireEvent.click(within(confirm()).getByRole('button', { name: 'Decline' }));
    expect(within(confirm()).getByRole('alert').textContent).toBe('Required');
    expect(posts()).toHaveLength(0);
    fireEvent.change(within(confirm()).getByLabelText('Reason (the holder sees it)'), {
      target: { value: 'Tickets are final sale.' },
    });
    fireEvent.click(within(confirm()).getByRole('button', { name: 'Decline' }));
    await within(confirm()).findByText('The refund request was already approved, declined or withdrawn.');
    expect(posts()).toEqual([
      { method: 'POST', url: '/v1/org/refund-requests/12/decline', body: { reason: 'Tickets are final sale.' } },
    ]);
  });

  it('the status buttons read the other lists, each with its empty text and no decision buttons', async () => {
    mount();
    await within(table()).findByText('Harbour Lights');
    const entries = window.history.length;
    fireEvent.click(screen.getByRole('button', { name: 'Declined' }));
    await within(table()).findByText('No declined requests.');
    expect(calls.some((c) => c.url === '/v1/org/refund-requests?status=declined')).toBe(true);
    expect(within(table()).queryByRole('button')).toBeNull();
    expect(pressed()).toEqual(['Declined']);
    // The URL says so, in place of the entry (a filter's change, as the Holders screen's event).
    expect(window.location.pathname).toBe('/console/refunds/declined');
    expect(window.history.length).toBe(entries);
    fireEvent.click(screen.getByRole('button', { name: 'Pending' }));
    await within(table()).findByText('Harbour Lights');
    expect(window.location.pathname).toBe('/console/refunds');
  });

  it("opens the URL's status (a reload, a shared link), and Back from another screen returns to it", async () => {
    window.history.replaceState(null, '', '/console/refunds/approved?lang=en');
    mount();
    await within(table()).findByText('No approved requests.');
    expect(pressed()).toEqual(['Approved']);
    expect(calls.map((c) => c.url)).toEqual(['/v1/org/refund-requests?status=approved']);
    navigate({ screen: 'events' });
    await screen.findByText('Another screen');
    window.history.back();
    await within(await screen.findByRole('region', { name: 'Refund requests' })).findByText('No approved requests.');
    expect(pressed()).toEqual(['Approved']);
    expect(window.location.search).toBe('?lang=en');
  });
});
