/**
 * Issue 45: the ticket page offers "Sell to the queue at face value" when the event's exchange queue takes the ticket,
 * asks first, calls the API and then says the ticket is returned and does not admit, with "Take it back"; a ticket a
 * fan's offer holds cannot be taken back; a holder with no payout account is sent to set it up; nothing shows when the
 * queue does not take the ticket.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { ExchangeReturnState } from '@tp/contract/exchange';
import { renderPanel, settle } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import ExchangeReturn from './components/exchange-return';

// The first render loads the signed-in catalogue, and the changes wait for a refetch: slow on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });

const ID = 41;
let state: ExchangeReturnState;
let calls: FakeRequest[];
let answer: (r: FakeRequest) => Response | undefined;

const mount = () => {
  fakeApi((r) => {
    calls.push(r);
    const special = answer(r);
    if (special) return special;
    if (r.path === `/exchange/returns/${ID}` && r.method === 'GET') return jsonResponse(state);
    if (r.path === '/exchange/returns' && r.method === 'POST') {
      state = { ...state, returnable: false, status: 'AVAILABLE' };
      return jsonResponse({ userTicketId: ID, status: 'AVAILABLE', priceCents: 9000, currencyCode: 'AUD' }, 201);
    }
    if (r.path === `/exchange/returns/${ID}` && r.method === 'DELETE') {
      state = { ...state, returnable: true, status: null };
      return new Response(null, { status: 204 });
    }
    return jsonResponse([]);
  });
  renderPanel(
    <>
      <ExchangeReturn userTicketId={ID} />
      <ToastContainer />
    </>,
    { search: `PANEL_TAB=TICKET&USER_TICKET_ID=${ID}` },
  );
};
const section = () => screen.getByRole('region', { name: 'Exchange queue' });
const dialog = () => screen.getByRole('dialog');

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  answer = () => undefined;
  state = {
    userTicketId: ID,
    returnable: true,
    status: null,
    priceCents: 9000,
    currencyCode: 'AUD',
    closesAt: '2030-03-01T08:00:00.000Z',
  };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe("the ticket page's exchange queue section", () => {
  it('sells to the queue after asking, then says it does not admit; taking it back asks and admits again', async () => {
    mount();
    await screen.findByRole('region', { name: 'Exchange queue' });
    expect(section().textContent).toContain('at face value (A$90.00)');
    fireEvent.click(within(section()).getByRole('button', { name: 'Sell to the queue at face value' }));
    expect(dialog().textContent).toContain('this ticket does not admit and cannot be gifted or resold');
    // Keeping the ticket calls nothing.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Keep my ticket' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(within(section()).getByRole('button', { name: 'Sell to the queue at face value' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sell to the queue at face value' }));
    await screen.findByText('Your ticket is in the exchange queue');
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ userTicketId: ID });
    await waitFor(() =>
      expect(section().textContent).toContain('It does not admit until it sells or you take it back.'),
    );
    fireEvent.click(within(section()).getByRole('button', { name: 'Take it back' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Take it back' }));
    await screen.findByText('Your ticket admits you again');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/exchange/returns/${ID}`)).toBe(true);
    await waitFor(() =>
      expect(within(section()).getByRole('button', { name: 'Sell to the queue at face value' })).toBeTruthy(),
    );
  });

  it("held by a fan's offer: says so, with no button to take it back", async () => {
    state = { ...state, returnable: false, status: 'RESERVED' };
    mount();
    await screen.findByRole('region', { name: 'Exchange queue' });
    expect(section().textContent).toContain('A fan’s offer holds it now');
    expect(within(section()).queryByRole('button')).toBeNull();
  });

  it('with no payout account: the refusal says to set it up and opens the payout settings', async () => {
    answer = (r) =>
      r.method === 'POST' ? jsonResponse({ message: 'api.exchange.return.no_payout_account' }, 403) : undefined;
    mount();
    await screen.findByRole('region', { name: 'Exchange queue' });
    fireEvent.click(within(section()).getByRole('button', { name: 'Sell to the queue at face value' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sell to the queue at face value' }));
    await screen.findByText('To sell to the queue, set up your payout account first.');
    expect(window.location.search).toContain('SETTINGS_TAB=ACCOUNT_VERIFICATION');
  });

  it('nothing shows when the queue does not take the ticket, nor when its state cannot be read', async () => {
    state = { ...state, returnable: false, status: null, closesAt: null };
    mount();
    await waitFor(() => expect(calls.some((c) => c.path === `/exchange/returns/${ID}`)).toBe(true));
    await settle(() => undefined);
    expect(screen.queryByRole('region', { name: 'Exchange queue' })).toBeNull();
    cleanup();
    calls = [];
    answer = (r) => (r.method === 'GET' ? jsonResponse({ message: 'api.internal_error' }, 500) : undefined);
    mount();
    await waitFor(() => expect(calls.some((c) => c.path === `/exchange/returns/${ID}`)).toBe(true));
    await settle(() => undefined);
    expect(screen.queryByRole('region', { name: 'Exchange queue' })).toBeNull();
  });
});
