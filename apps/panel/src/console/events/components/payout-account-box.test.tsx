/**
 * Issue 45: the organisation's payout account on the console's exchange page, against a stub API. An owner whose
 * account is not verified is told releases wait for it and cannot release; the sandbox form (no Stripe key) verifies
 * it and the release goes ahead. With a Stripe key the start button opens Stripe's onboarding with the secret of POST
 * /v1/org/payout-account. A staff member (403 on the account) is told an owner sets it up; a refused release says why.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initConsoleI18n } from '../../i18n';
import { ExchangeView } from './exchange-view';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';

const event = aConsoleEvent();
const overview = {
  settings: {
    enabled: true,
    offerMinutes: 20,
    order: 'first_come',
    drawAt: null,
    maxQuantity: 4,
    closesAt: null,
    effectiveClosesAt: '2027-03-01T09:00:00Z',
    closedAt: null,
  },
  types: [
    {
      ticketTypeExternalId: 'ga',
      name: 'General Admission',
      waiting: 2,
      offered: 0,
      returned: 0,
      released: 0,
      sold: 0,
      expired: 0,
    },
  ],
};
const gaType = {
  externalId: 'ga',
  eventExternalId: 'evt-1',
  name: 'General Admission',
  description: null,
  priceCents: 5000,
  currency: 'AUD',
  resaleCapCents: 5000,
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  stock: 0,
  swapTargets: [],
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
/** The stub's state: the account (or a 403 for staff), the Stripe key, the answers of the writes. */
let state: {
  account: { verified: boolean; started: boolean } | 'staff';
  stripeKey: string;
  onboarding: () => Response;
  release: () => Response;
};

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  calls = [];
  state = {
    account: { verified: false, started: false },
    stripeKey: '',
    onboarding: () => {
      state.account = { verified: true, started: true };
      return new Response(null, { status: 204 });
    },
    release: () => json({ released: 1, offered: 1 }, 201),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const path = input.split('?')[0];
      const method = init?.method ?? 'GET';
      calls.push({ method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const route = `${method} ${path}`;
      if (route === 'GET /v1/org/events/evt-1/exchange') return Promise.resolve(json(overview));
      if (route === 'GET /v1/org/ticket-types') return Promise.resolve(json({ items: [gaType], nextCursor: null }));
      if (route === 'GET /v1/config') return Promise.resolve(json({ stripePublishableKey: state.stripeKey }));
      if (route === 'GET /v1/org/payout-account')
        return Promise.resolve(
          state.account === 'staff'
            ? json({ message: 'api.org.role_forbidden' }, 403)
            : json({ clientSecret: '', ...state.account }),
        );
      if (route === 'POST /v1/org/payout-account') return Promise.resolve(json({ clientSecret: 'accs_secret_1' }));
      if (route === 'POST /v1/org/payout-account/sandbox-onboarding') return Promise.resolve(state.onboarding());
      if (route === 'POST /v1/org/events/evt-1/exchange/releases') return Promise.resolve(state.release());
      return Promise.resolve(json({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

const mount = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ExchangeView event={event} onBack={() => undefined} />
    </QueryClientProvider>,
  );
const box = () => screen.getByRole('region', { name: 'Payout account' });
const releaseForm = () => screen.getByRole('form', { name: 'Release tickets' });
const releaseButton = () => within(releaseForm()).getByRole('button', { name: 'Release' });

async function fillRelease() {
  const form = releaseForm();
  await within(form).findByRole('option', { name: 'General Admission' });
  fireEvent.change(within(form).getByLabelText('Ticket type'), { target: { value: 'ga' } });
  fireEvent.change(within(form).getByLabelText('How many'), { target: { value: '1' } });
  fireEvent.change(within(form).getByLabelText('Price each'), { target: { value: '50' } });
}

describe("the organisation's payout account on the exchange page", () => {
  it('not verified: the release waits; the sandbox form verifies the account, then the release goes ahead', async () => {
    mount();
    await within(await screen.findByRole('region', { name: 'Payout account' })).findByText(
      /set it up below, and release once it is verified/,
    );
    expect(releaseButton()).toHaveProperty('disabled', true);
    expect(within(releaseForm()).getByText(/Releasing waits until/)).toBeTruthy();

    const form = await within(box()).findByRole('form', { name: "Verify your organisation's payout details" });
    const verify = within(form).getByRole('button', { name: 'Verify payout account' });
    expect(verify).toHaveProperty('disabled', true);
    fireEvent.change(within(form).getByRole('combobox', { name: 'Country' }), { target: { value: 'NZ' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'First name' }), { target: { value: ' Ann ' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Last name' }), { target: { value: 'Lee' } });
    fireEvent.change(within(form).getByLabelText('Date of birth'), { target: { value: '1990-04-05' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Bank account' }), {
      target: { value: '12-3456-7890123-00' },
    });
    await waitFor(() => expect(verify).toHaveProperty('disabled', false));
    fireEvent.click(verify);

    expect(await within(box()).findByTestId('payout-verified')).toHaveProperty(
      'textContent',
      "Released tickets are paid to your organisation's payout account.",
    );
    expect(calls.find((c) => c.path === '/v1/org/payout-account/sandbox-onboarding')?.body).toEqual({
      country: 'NZ',
      firstName: 'Ann',
      lastName: 'Lee',
      birthdate: '1990-04-05',
      bankAccount: '12-3456-7890123-00',
    });
    await waitFor(() => expect(releaseButton()).toHaveProperty('disabled', false));
    await fillRelease();
    fireEvent.click(releaseButton());
    await within(releaseForm()).findByText('1 ticket released; 1 fans offered tickets.');
    expect(calls.find((c) => c.path.endsWith('/releases'))?.body).toEqual({
      ticketTypeExternalId: 'ga',
      quantity: 1,
      priceCents: 5000,
    });
    // Stripe's script is not loaded without a publishable key.
    expect(document.querySelector('script[src*="connect-js.stripe.com"]')).toBeNull();
  });

  it("says a refused onboarding's reason in the box, and the account stays unverified", async () => {
    state.onboarding = () => json({ message: 'api.resell.not_supported_country' }, 400);
    mount();
    const form = await screen.findByRole('form', { name: "Verify your organisation's payout details" });
    fireEvent.change(within(form).getByRole('textbox', { name: 'First name' }), { target: { value: 'Ann' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Last name' }), { target: { value: 'Lee' } });
    fireEvent.change(within(form).getByLabelText('Date of birth'), { target: { value: '1990-04-05' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Bank account' }), {
      target: { value: '062-000 12345678' },
    });
    const verify = within(form).getByRole('button', { name: 'Verify payout account' });
    await waitFor(() => expect(verify).toHaveProperty('disabled', false));
    fireEvent.click(verify);
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Payouts are available in Australia and New Zealand only.',
    );
    expect(within(box()).queryByTestId('payout-verified')).toBeNull();
    expect(releaseButton()).toHaveProperty('disabled', true);
  });

  it("with Stripe: starting opens Stripe's onboarding with the organisation's client secret", async () => {
    state.stripeKey = 'pk_test_123';
    mount();
    const start = await within(await screen.findByRole('region', { name: 'Payout account' })).findByRole('button', {
      name: 'Start verification',
    });
    expect(screen.queryByRole('form', { name: "Verify your organisation's payout details" })).toBeNull();
    expect(document.querySelector('script[src*="connect-js.stripe.com"]')).toBeNull();
    fireEvent.click(start);
    await waitFor(() => expect(document.querySelector('script[src*="connect-js.stripe.com"]')).not.toBeNull());
    expect(calls.find((c) => c.method === 'POST' && c.path === '/v1/org/payout-account')?.body).toEqual({
      country: 'AU',
    });
  });

  it('staff: told an owner sets it up; a release the API refuses for want of the account says why', async () => {
    state.account = 'staff';
    state.release = () => json({ message: 'api.org.exchange.no_payout_account' }, 403);
    mount();
    await within(await screen.findByRole('region', { name: 'Payout account' })).findByText(
      /An owner of the organisation sets it up/,
    );
    expect(within(box()).queryByRole('form')).toBeNull();
    expect(calls.some((c) => c.path === '/v1/config')).toBe(false);
    await waitFor(() => expect(releaseButton()).toHaveProperty('disabled', false));
    await fillRelease();
    fireEvent.click(releaseButton());
    expect((await within(releaseForm()).findByRole('alert')).textContent).toBe(
      "Released tickets are paid to your organisation's payout account: set it up and wait until it is verified before releasing.",
    );
  });
});
