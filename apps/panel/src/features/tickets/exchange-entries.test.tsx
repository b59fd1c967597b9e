/**
 * Issue 45: My tickets shows the holder's places in exchange queues (position, the draw, an open offer's hold time),
 * buying an offer opens its payment page, and leaving a queue or declining an offer asks first, calls the API and refreshes the list; a refused call says why.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { ExchangeEntry } from '@tp/contract/exchange';
import { renderPanel, settle } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import MyTicketsScreen from './components/my-tickets-screen';
import { leavePanel } from '../../lib/leave-panel';

const entry = (over: Partial<ExchangeEntry>): ExchangeEntry => ({
  id: 1,
  event: { name: 'Harbour Lights', externalId: 'hl', startsAt: '2030-03-01T19:00:00Z', timeZone: 'Australia/Sydney' },
  ticketType: { name: 'General admission', externalId: 'ga' },
  quantity: 1,
  status: 'WAITING',
  position: 1,
  inDraw: false,
  offer: null,
  createdAt: '2030-01-01T10:00:00Z',
  ...over,
});

let entries: ExchangeEntry[];
let calls: FakeRequest[];
let answer: (r: FakeRequest) => Response | undefined;

const mount = () => {
  fakeApi((r) => {
    calls.push(r);
    const special = answer(r);
    if (special) return special;
    if (r.path === '/exchange/entries') return jsonResponse(entries);
    return jsonResponse([]);
  });
  renderPanel(
    <>
      <MyTicketsScreen />
      <ToastContainer />
    </>,
    { search: 'PANEL_TAB=MY_TICKET' },
  );
};
const section = () => screen.getByRole('region', { name: 'Waiting for tickets' });

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  answer = () => undefined;
  entries = [
    entry({ id: 7, quantity: 2, position: 3 }),
    entry({ id: 8, ticketType: { name: 'VIP', externalId: 'vip' }, position: null, inDraw: true }),
    entry({
      id: 9,
      event: { name: 'Night Market', externalId: 'nm', startsAt: '2030-04-01T19:00:00Z', timeZone: 'Australia/Sydney' },
      status: 'OFFERED',
      position: 1,
      offer: { expiresAt: '2030-02-01T18:20:00Z' },
    }),
    entry({
      id: 10,
      event: {
        name: 'Bought Already',
        externalId: 'b',
        startsAt: '2030-01-01T19:00:00Z',
        timeZone: 'Australia/Sydney',
      },
      status: 'PURCHASED',
      position: null,
    }),
  ];
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('my places in exchange queues', () => {
  it('shows each waiting entry with its position or the draw, an offer with its hold time, and not ended entries', async () => {
    mount();
    expect(await screen.findByText('Number 3 in the queue')).toBeTruthy();
    const items = within(section()).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0].textContent).toContain('2 × General admission');
    // In the event's zone: 19:00 UTC is the next morning in Sydney.
    expect(items[0].textContent).toContain('6:00 AM AEDT');
    expect(items[1].textContent).toContain('In the draw');
    expect(items[2].textContent).toMatch(/Offer.*Tickets held for you until/);
    expect(within(items[2]).getByRole('button', { name: 'Decline the offer' })).toBeTruthy();
    expect(within(items[0]).queryByRole('button', { name: 'Decline the offer' })).toBeNull();
    expect(screen.queryByText('Bought Already')).toBeNull();
  });

  it('leaving asks first, then calls DELETE for that entry and the list loses it', async () => {
    answer = (r) => {
      if (r.method === 'DELETE') {
        entries = entries.filter((e) => e.id !== 7);
        return jsonResponse(undefined, 204);
      }
      return undefined;
    };
    mount();
    await screen.findByText('Number 3 in the queue');
    fireEvent.click(within(section()).getAllByRole('button', { name: 'Leave the queue' })[0]);
    const dialog = screen.getByRole('dialog', { name: 'Leave the queue?' });
    expect(dialog.textContent).toContain('General admission at Harbour Lights');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay in the queue' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(section()).getAllByRole('button', { name: 'Leave the queue' })[0]);
    await settle(() =>
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Leave the queue?' })).getByRole('button', {
          name: 'Leave the queue',
        }),
      ),
    );
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/exchange/entries/7']);
    expect(await screen.findByText('You left the queue')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Number 3 in the queue')).toBeNull());
    expect(within(section()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('a decline the server refuses says why, and the entry stays', async () => {
    answer = (r) =>
      r.path === '/exchange/entries/9/decline'
        ? jsonResponse({ message: 'api.exchange.decline.not_offered' }, 409)
        : undefined;
    mount();
    await screen.findByText('Number 3 in the queue');
    fireEvent.click(within(section()).getByRole('button', { name: 'Decline the offer' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline the offer?' });
    await settle(() => fireEvent.click(within(dialog).getByRole('button', { name: 'Decline the offer' })));
    expect(await screen.findByText('This entry has no open offer.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/exchange/entries/9/decline']);
    expect(within(section()).getAllByRole('listitem')).toHaveLength(3);
  });

  it("buying opens the offer's payment page; a refusal (the offer ended) says so and asks for the entries again", async () => {
    const went = vi.spyOn(leavePanel, 'to').mockImplementation(() => undefined);
    let ended = false;
    answer = (r) =>
      r.path === '/exchange/entries/9/checkout'
        ? ended
          ? jsonResponse({ message: 'api.exchange.checkout.not_offered' }, 409)
          : jsonResponse({ checkoutUrl: 'https://checkout.example/cs_9' })
        : undefined;
    mount();
    await screen.findByText('Number 3 in the queue');
    const items = within(section()).getAllByRole('listitem');
    expect(within(items[0]).queryByRole('button', { name: 'Buy my tickets' })).toBeNull();
    await settle(() => fireEvent.click(within(items[2]).getByRole('button', { name: 'Buy my tickets' })));
    await waitFor(() => expect(went).toHaveBeenCalledWith('https://checkout.example/cs_9'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/exchange/entries/9/checkout']);
    went.mockClear();
    cleanup();
    ended = true;
    mount();
    await screen.findByText('Number 3 in the queue');
    const loads = calls.filter((c) => c.path === '/exchange/entries').length;
    await settle(() =>
      fireEvent.click(
        within(within(section()).getAllByRole('listitem')[2]).getByRole('button', { name: 'Buy my tickets' }),
      ),
    );
    expect(await screen.findByText('This offer has ended.')).toBeTruthy();
    expect(went).not.toHaveBeenCalled();
    await waitFor(() => expect(calls.filter((c) => c.path === '/exchange/entries').length).toBeGreaterThan(loads));
    went.mockRestore();
  });

  it('no entries: nothing shows; a failed load: its error and a retry that loads them', async () => {
    let fail = true;
    answer = (r) =>
      r.path === '/exchange/entries' && fail ? jsonResponse({ message: 'api.service_unavailable' }, 503) : undefined;
    mount();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    fail = false;
    await settle(() => fireEvent.click(retry));
    expect(await screen.findByText('Number 3 in the queue')).toBeTruthy();
    cleanup();
    entries = [];
    mount();
    await waitFor(() => expect(calls.filter((c) => c.path === '/exchange/entries').length).toBeGreaterThan(2));
    expect(screen.queryByRole('region', { name: 'Waiting for tickets' })).toBeNull();
  });
});
