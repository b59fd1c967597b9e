/**
 * A finished swap shows what changed (issue 13): back from the checkout, the swap remembered before leaving
 * is confirmed (confirm_swap; "already confirmed" by the checkout counts as done) and summarised: before and
 * now with the count, and what was paid (upgrade) or not refunded (downgrade); its heading takes the focus.
 * A swap that did not go through (cancelled, expired) shows no summary.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import SwapScreen from './components/swap-screen';
import { rememberSwap, type SwapSummary } from './swap-outcome';

const vip = {
  id: 2,
  name: 'VIP',
  logo: null,
  price: 200,
  currencySymbol: 'A$',
  currencyCode: 'AUD',
  quantity: 1,
  eventId: 9,
  eventName: 'Laneway Sessions',
  userTicketIds: [7],
};
const upgrade: SwapSummary = {
  orderIdentifier: '0b6f3d1e-1111-4222-8333-944445555666',
  swapType: 'UPGRADE',
  count: 2,
  fromName: 'General Admission',
  toName: 'VIP',
  eventName: 'Laneway Sessions',
  amount: 240,
  currencySymbol: 'A$',
};

let calls: FakeRequest[];
function api(confirm: () => Response) {
  calls = [];
  fakeApi((r) => {
    calls.push(r);
    if (r.path.startsWith('/ticket_swap/confirm_swap/')) return confirm();
    if (r.path === '/ticket_swap/tickets') return jsonResponse([vip]);
    return jsonResponse([]);
  });
}
const mount = () =>
  renderPanel(<SwapScreen />, {
    search: 'PANEL_TAB=SWAP',
    data: [[queryKeys.config, { checkoutBaseUrl: '', assetsBaseUrl: '' }]],
  });

beforeEach(() => localStorage.setItem('tp.accessToken', 'token'));
/** What the screen stores before leaving for the checkout: the swap's id (use-checkout-return) and its summary. */
const leaveForCheckout = (summary: SwapSummary) => {
  localStorage.setItem('tp.swapIdentifier', summary.orderIdentifier);
  rememberSwap(summary);
};
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

describe('back from the checkout', () => {
  it('confirms the remembered swap and shows before, now, the count and what was paid; heading focused', async () => {
    leaveForCheckout(upgrade);
    api(() => jsonResponse({ swapType: 'UPGRADE', quantity: 2 }));
    mount();
    const heading = await screen.findByRole('heading', { name: 'Your swap is done' });
    const summary = heading.closest('section')!;
    // The section is named by its heading (ui/success-heading SuccessSection).
    expect(screen.getByRole('region', { name: 'Your swap is done' })).toBe(summary);
    expect(within(summary).getByText('Before').nextElementSibling?.textContent).toBe(
      '2 tickets · General Admission · Laneway Sessions',
    );
    expect(within(summary).getByText('Now').nextElementSibling?.textContent).toBe('2 tickets · VIP · Laneway Sessions');
    expect(within(summary).getByText('You paid the difference of A$240.00.')).toBeTruthy();
    expect(document.activeElement).toBe(heading);
    expect(calls.find((c) => c.method === 'POST')?.path).toBe(`/ticket_swap/confirm_swap/${upgrade.orderIdentifier}`);
    // Told once: the remembered swap is forgotten.
    expect(sessionStorage.length).toBe(0);
  });

  it('a downgrade the checkout already confirmed: done, and says the difference was not refunded', async () => {
    leaveForCheckout({
      ...upgrade,
      swapType: 'DOWNGRADE',
      count: 1,
      fromName: 'VIP',
      toName: 'General Admission',
      amount: 80,
    });
    api(() => jsonResponse({ message: 'api.swap.already_confirmed' }, 409));
    mount();
    expect(await screen.findByText('The price difference of A$80.00 was not refunded.')).toBeTruthy();
    expect(screen.getByText('Before').nextElementSibling?.textContent).toBe('1 ticket · VIP · Laneway Sessions');
  });

  it('a cancelled or expired swap shows no summary', async () => {
    leaveForCheckout(upgrade);
    api(() => jsonResponse({ message: 'api.swap.expired' }, 409));
    mount();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    await waitFor(() => expect(sessionStorage.length).toBe(0));
    expect(screen.queryByRole('heading', { name: 'Your swap is done' })).toBeNull();
  });

  it('without a remembered swap nothing is confirmed', async () => {
    api(() => jsonResponse({}));
    mount();
    expect(await screen.findByText('VIP')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
