/**
 * The payout tab: sandbox onboarding without Stripe; with a publishable key, Stripe's Connect.js is
 * fetched only after the user starts verification (connect-js/pure: nothing at import time).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Earning, PanelConfig, User } from '@tp/contract';
import { createQueryClient } from '../../../lib/query-client';
import { clientHooks } from '../../../lib/api-client';
import { initI18n } from '../../../lib/i18n';
import { PayoutTab } from './payout-tab';

const config: PanelConfig = {
  isDev: true,
  checkoutBaseUrl: '',
  stripePublishableKey: '',
  orgName: null,
  orgLogo: null,
  orgWebsite: null,
  productName: 'P',
  productSiteUrl: '',
  helpCenterUrl: '',
  appUrl: '',
  assetsBaseUrl: '',
  twitterVia: 'x',
};
const user = { givenName: 'Bob', familyName: 'Taylor', email: 'bob@example.com' } as unknown as User;
const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
const connectScript = () => document.querySelector('script[src*="connect-js.stripe.com"]');

let calls: { path: string; method: string; body: unknown }[];
let verified: boolean;
let earnings: Earning[];

function mount(stripePublishableKey: string) {
  const qc = createQueryClient();
  qc.setQueryData(['CONFIG'], { ...config, stripePublishableKey });
  qc.setQueryData(['USER'], user);
  return render(
    <QueryClientProvider client={qc}>
      <PayoutTab />
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  verified = false;
  earnings = [];
  clientHooks.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace('/v1', '');
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, method: init?.method ?? 'GET', body });
    if (path === '/resell/stripe') return json({ clientSecret: verified ? 'secret_1' : '', verified });
    if (path === '/resell/sandbox-onboarding') {
      verified = true;
      return new Response(null, { status: 204 });
    }
    if (path === '/resell/stripe-connect') return json({ clientSecret: 'accs_secret_1' });
    if (path === '/resell/earnings') return json(earnings);
    return json({ message: 'api.not_found' }, 404);
  }) as typeof clientHooks.fetch;
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('payout tab', () => {
  it('without Stripe: the sandbox form verifies the account, and Stripe is never loaded', async () => {
    mount('');
    await screen.findByRole('heading', { name: 'Verify your payout details' }, { timeout: 5000 });
    const verify = screen.getByRole('button', { name: 'Verify payout account' });
    expect(verify).toHaveProperty('disabled', true);
    expect((screen.getByRole('textbox', { name: 'First name' }) as HTMLInputElement).value).toBe('Bob');
    fireEvent.change(screen.getByRole('combobox', { name: 'Country' }), { target: { value: 'NZ' } });
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1990-04-05' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Bank account' }), {
      target: { value: '12-3456-7890123-00' },
    });
    await waitFor(() => expect(verify).toHaveProperty('disabled', false));
    await act(async () => {
      fireEvent.click(verify);
    });
    await screen.findByText('Your payout account is verified', { selector: 'h2' });
    expect(calls.find((c) => c.path === '/resell/sandbox-onboarding')?.body).toEqual({
      country: 'NZ',
      firstName: 'Bob',
      lastName: 'Taylor',
      birthdate: '1990-04-05',
      bankAccount: '12-3456-7890123-00',
    });
    expect(connectScript()).toBeNull();
  });

  it('with a publishable key: Connect.js is fetched only once the user starts verification', async () => {
    mount('pk_test_123');
    const start = await screen.findByRole('button', { name: 'Start verification' });
    expect(screen.queryByRole('heading', { name: 'Verify your payout details' })).toBeNull();
    expect(connectScript()).toBeNull();
    await act(async () => {
      fireEvent.click(start);
    });
    await waitFor(() => expect(connectScript()).not.toBeNull());
    expect(calls.find((c) => c.path === '/resell/stripe-connect')?.body).toEqual({
      accountType: 'custom',
      country: 'AU',
    });
  });

  it('lists the earnings: what each sale owes the seller, in two decimals, with its payout status', async () => {
    earnings = [
      {
        orderId: 'o1',
        name: 'Laneway Sessions · VIP',
        ticketLogo: null,
        quantity: 2,
        amountCents: 16050,
        currencyCode: 'AUD',
        currencySymbol: 'A$',
        soldDate: '2026-11-20T09:30:00.000Z',
        payoutStatus: 'PENDING',
      },
      {
        orderId: 'o2',
        name: 'Aotearoa Sound · General Admission',
        ticketLogo: null,
        quantity: 1,
        amountCents: 4000,
        currencyCode: 'NZD',
        currencySymbol: 'NZ$',
        soldDate: '2026-11-18T09:30:00.000Z',
        payoutStatus: 'PAID',
      },
    ];
    mount('');
    await screen.findByRole('heading', { name: 'Earnings' });
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/Laneway Sessions · VIP.*2 tickets.*A\$160\.50.*Payout pending/),
      expect.stringMatching(/Aotearoa Sound · General Admission.*1 ticket.*NZ\$40\.00.*Paid out/),
    ]);
  });

  it('says so when nothing sold yet', async () => {
    mount('');
    await screen.findByText(/No sales yet/);
  });
});
