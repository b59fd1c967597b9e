/**
 * Issue 45: opened from an event's exchange queue page (its wish in the address), My tickets asks "Join the exchange
 * queue?" naming the event, type, quantity and face value, and joins in one tap; "Not now", a join or a refusal
 * clears the wish; a closed queue says so without the button.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { ExchangeEntry, ExchangePublic } from '@tp/contract/exchange';
import { renderPanel, settle } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import MyTicketsScreen from './components/my-tickets-screen';
import { joinWishOf } from './api/exchange-join.api';

const WISH = 'PANEL_TAB=MY_TICKET&org=acme&EXCHANGE_EVENT=hl&EXCHANGE_TYPE=ga&EXCHANGE_QUANTITY=2';
const view = (open = true): ExchangePublic => ({
  event: {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    startsAt: '2030-03-01T09:00:00Z',
    timeZone: 'Australia/Sydney',
  },
  open,
  closesAt: '2030-03-01T09:00:00Z',
  maxQuantity: 4,
  types: [{ ticketTypeExternalId: 'ga', name: 'General admission', priceCents: 5000, currencyCode: 'AUD' }],
});

let calls: FakeRequest[];
let answer: (r: FakeRequest) => Response | undefined;
const mount = (search = WISH) => {
  fakeApi((r) => {
    calls.push(r);
    return answer(r) ?? jsonResponse([]);
  });
  renderPanel(
    <>
      <MyTicketsScreen />
      <ToastContainer />
    </>,
    { search },
  );
};
const prompt = () => screen.queryByRole('region', { name: 'Join the exchange queue?' });
const joined = (): ExchangeEntry => ({
  id: 3,
  event: { name: 'Harbour Lights', externalId: 'hl', startsAt: '2030-03-01T09:00:00Z', timeZone: 'Australia/Sydney' },
  ticketType: { name: 'General admission', externalId: 'ga' },
  quantity: 2,
  status: 'WAITING',
  position: 4,
  inDraw: false,
  offer: null,
  createdAt: '2030-01-01T10:00:00Z',
});

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  answer = (r) => (r.path === '/exchange/acme/hl' ? jsonResponse(view()) : undefined);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('joining a queue from its page', () => {
  it('reads the wish from the address: a whole quantity from 1 to 6, every part present', () => {
    expect(joinWishOf(`?${WISH}`)).toEqual({
      orgSlug: 'acme',
      eventExternalId: 'hl',
      ticketTypeExternalId: 'ga',
      quantity: 2,
    });
    expect(joinWishOf('?org=acme&EXCHANGE_EVENT=hl')).toBeNull();
    expect(joinWishOf(`?${WISH.replace('QUANTITY=2', 'QUANTITY=7')}`)).toBeNull();
    expect(joinWishOf(`?${WISH.replace('QUANTITY=2', 'QUANTITY=1.5')}`)).toBeNull();
  });

  it('asks with the event, type, quantity and face value; one tap joins, says so and clears the wish', async () => {
    answer = (r) => {
      if (r.path === '/exchange/acme/hl') return jsonResponse(view());
      if (r.path === '/exchange/acme/hl/entries') return jsonResponse(joined(), 201);
      return undefined;
    };
    mount();
    expect(
      await screen.findByText(/2 × General admission for Harbour Lights, A?\$50\.00 each at face value/),
    ).toBeTruthy();
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Join the queue' })));
    expect(await screen.findByText("You're in the queue")).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.path, c.body])).toEqual([
      ['/exchange/acme/hl/entries', { ticketTypeExternalId: 'ga', quantity: 2 }],
    ]);
    await waitFor(() => expect(prompt()).toBeNull());
    expect(window.location.search).toBe('?PANEL_TAB=MY_TICKET&org=acme');
  });

  it('a refusal says why and clears the wish; "Not now" clears it without joining', async () => {
    answer = (r) => {
      if (r.path === '/exchange/acme/hl') return jsonResponse(view());
      if (r.path === '/exchange/acme/hl/entries')
        return jsonResponse({ message: 'api.exchange.join.already_in_queue' }, 409);
      return undefined;
    };
    mount();
    await screen.findByRole('button', { name: 'Join the queue' });
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Join the queue' })));
    expect(await screen.findByText("You're already in the queue for this ticket type.")).toBeTruthy();
    await waitFor(() => expect(prompt()).toBeNull());
    cleanup();
    mount();
    await screen.findByRole('button', { name: 'Join the queue' });
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(prompt()).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(window.location.search).not.toContain('EXCHANGE_');
  });

  it('a closed queue says so, with no join button; no wish, no question', async () => {
    answer = (r) => (r.path === '/exchange/acme/hl' ? jsonResponse(view(false)) : undefined);
    mount();
    expect(await screen.findByText('The exchange queue for this event is closed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Join the queue' })).toBeNull();
    cleanup();
    calls = [];
    mount('PANEL_TAB=MY_TICKET');
    await waitFor(() => expect(calls.some((c) => c.path.startsWith('/list/'))).toBe(true));
    expect(prompt()).toBeNull();
    expect(calls.some((c) => c.path === '/exchange/acme/hl')).toBe(false);
  });
});
