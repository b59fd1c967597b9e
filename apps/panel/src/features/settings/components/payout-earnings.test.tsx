/**
 * The payout tab's earnings list (issue 13, item 6): each sale with its date, quantity (plural forms), what
 * the seller is owed in the listing's currency, and its payout status; an empty list says so; a failed
 * load shows the translated message and a retry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { Earning } from '@tp/contract';
import { renderPanel } from '../../../test/render';
import { fakeApi, jsonResponse } from '../../../test/fetch';
import { PayoutEarnings } from './payout-earnings';

const sale = (over: Partial<Earning>): Earning => ({
  orderId: 'o1',
  name: 'Laneway Sessions · VIP',
  ticketLogo: null,
  quantity: 1,
  amountCents: 12_050,
  currencyCode: 'AUD',
  currencySymbol: 'A$',
  soldDate: '2026-11-28T08:00:00Z',
  payoutStatus: 'PENDING',
  ...over,
});

afterEach(() => cleanup());

describe('payout tab earnings', () => {
  it('lists each sale with quantity, amount owed with two decimals and its payout status', async () => {
    let calls = 0;
    fakeApi(({ path }) => {
      calls += 1;
      return path === '/resell/earnings'
        ? jsonResponse([
            sale({}),
            sale({ orderId: 'o2', name: 'River Nights · GA', quantity: 3, amountCents: 9_000, payoutStatus: 'PAID' }),
          ])
        : jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<PayoutEarnings />);
    const list = await screen.findByRole('list', { name: 'Earnings' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('Laneway Sessions · VIP');
    expect(items[0].textContent).toContain('· 1 ticket');
    expect(items[0].textContent).not.toContain('1 tickets');
    expect(items[0].textContent).toContain('A$120.50');
    expect(items[0].textContent).toContain('Payout pending');
    expect(items[1].textContent).toContain('· 3 tickets');
    expect(items[1].textContent).toContain('A$90.00');
    expect(items[1].textContent).toContain('Paid out');
    expect(calls).toBe(1);
  });

  it('says so when nothing sold yet', async () => {
    fakeApi(() => jsonResponse([]));
    renderPanel(<PayoutEarnings />);
    expect(await screen.findByText(/No sales yet/)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('a failed load shows the translated message (never the key) and retries', async () => {
    let fail = true;
    fakeApi(() => (fail ? jsonResponse({ message: 'api.internal_error' }, 500) : jsonResponse([sale({})])));
    renderPanel(<PayoutEarnings />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Something went wrong on our side');
    expect(alert.textContent).not.toContain('api.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Earnings' })).toBeTruthy();
  });
});
