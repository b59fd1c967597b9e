/**
 * The payout tab: sandbox onboarding without Stripe; with a publishable key, Stripe's Connect.js is
 * fetched only after the user starts verification (connect-js/pure: nothing at import time).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { User } from '@tp/contract';
import { queryKeys } from '../../../lib/query-keys';
import { renderPanel, settle } from '../../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../../test/fetch';
import { PayoutTab } from './payout-tab';
import { aPanelConfig } from '../../../test/fixtures';

const config = aPanelConfig();
const user = { givenName: 'Bob', familyName: 'Taylor', email: 'bob@example.com' } as unknown as User;
const connectScript = () => document.querySelector('script[src*="connect-js.stripe.com"]');

let calls: FakeRequest[];
let verified: boolean;

function mount(stripePublishableKey: string) {
  return renderPanel(<PayoutTab />, {
    data: [
      [queryKeys.config, { ...config, stripePublishableKey }],
      [queryKeys.user.all, user],
    ],
  });
}

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  verified = false;
  fakeApi((request) => {
    calls.push(request);
    const { path } = request;
    if (path === '/resell/stripe') return jsonResponse({ clientSecret: '', started: verified, verified });
    if (path === '/resell/sandbox-onboarding') {
      verified = true;
      return new Response(null, { status: 204 });
    }
    if (path === '/resell/stripe-connect') return jsonResponse({ clientSecret: 'accs_secret_1' });
    return jsonResponse({ message: 'api.not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('payout tab', () => {
  it('without Stripe: the sandbox form verifies the account, and Stripe is never loaded', async () => {
    mount('');
    await screen.findByRole('heading', { name: 'Verify your payout details' });
    const verify = screen.getByRole('button', { name: 'Verify payout account' });
    expect(verify).toHaveProperty('disabled', true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'First name' }).value).toBe('Bob');
    fireEvent.change(screen.getByRole('combobox', { name: 'Country' }), { target: { value: 'NZ' } });
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1990-04-05' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Bank account' }), {
      target: { value: '12-3456-7890123-00' },
    });
    await waitFor(() => expect(verify).toHaveProperty('disabled', false));
    await settle(() => fireEvent.click(verify));
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
    await settle(() => fireEvent.click(start));
    await waitFor(() => expect(connectScript()).not.toBeNull());
    expect(calls.find((c) => c.path === '/resell/stripe-connect')?.body).toEqual({
      accountType: 'custom',
      country: 'AU',
    });
  });
});
