/**
 * The resale form rules (spec sections 4 Resell flow and 5): quantity clamped with +/- disabled at the
 * bounds, the summary re-requested on every price or quantity change, Continue disabled until dirty and
 * valid and while the summary loads, then locked with the terms checkbox; POST /resell with an
 * Idempotency-Key; the no-payout toast. The price starts at 0 and a price above the cap is "Invalid price" (spec
 * section 5, issue 40 point 10); the cap is the field's helper; the form kept for the payout tab comes back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { renderPanel, settle } from '../../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../../test/fetch';
import type { ResellableTicket } from '../resell.types';
import { ResellForm } from './resell-form';

const ticket: ResellableTicket = {
  userTicketId: 41,
  ticketId: 7,
  ticketName: 'River Nights · General Admission',
  ticketLogo: null,
  availableTicketCount: 3,
  ticketPrice: 79,
  maxTicketPrice: 86.9,
  currencyCode: 'AUD',
  currencySymbol: 'A$',
};
let calls: FakeRequest[];
let createAnswer: () => Response;
let calcGate: Promise<void> | null;

function mount(onListed = vi.fn()) {
  renderPanel(
    <>
      <ResellForm
        ticket={ticket}
        onDraft={() => undefined}
        onLockedChange={() => undefined}
        onCancel={() => undefined}
        onListed={onListed}
      />
      <ToastContainer />
    </>,
  );
  return onListed;
}
const calcCalls = () => calls.filter((c) => c.path === '/resell/ticket/calculation').map((c) => c.body);
const price = () => screen.getByRole('textbox', { name: 'Price per ticket (A$)' });
const cont = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });

beforeEach(() => {
  localStorage.setItem('tp.accessToken', 'token');
  calls = [];
  calcGate = null;
  createAnswer = () => jsonResponse({ shareLinkUrl: 'http://x.test/r/abc' });
  fakeApi(async (request) => {
    calls.push(request);
    if (request.path === '/resell/ticket/calculation') {
      if (calcGate) await calcGate;
      const body = request.body as { selectedPrice: number; quantity: number };
      const p = Math.round(body.selectedPrice * 100);
      const fee = Math.round(p / 10);
      const q = body.quantity;
      return jsonResponse({ basePrice: (p * q) / 100, serviceFee: (fee * q) / 100, totalPrice: ((p + fee) * q) / 100 });
    }
    if (request.path === '/resell') return createAnswer();
    return jsonResponse({ message: 'api.not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

describe('resell form', () => {
  it('quantity stays within 1..availableTicketCount; +/- disabled at the bounds', () => {
    mount();
    const minus = screen.getByRole<HTMLButtonElement>('button', { name: 'Decrease quantity' });
    const plus = screen.getByRole<HTMLButtonElement>('button', { name: 'Increase quantity' });
    const qty = screen.getByRole<HTMLInputElement>('textbox', { name: 'Quantity' });
    expect(qty.value).toBe('1');
    expect(minus.disabled).toBe(true);
    fireEvent.click(plus);
    fireEvent.click(plus);
    expect(qty.value).toBe('3');
    expect(plus.disabled).toBe(true);
    expect(minus.disabled).toBe(false);
    fireEvent.change(qty, { target: { value: '9' } });
    expect(qty.value).toBe('3');
    fireEvent.change(qty, { target: { value: '0' } });
    expect(qty.value).toBe('1');
  });

  it('re-requests the summary on every price or quantity change; Continue waits for it and for a valid price', async () => {
    mount();
    // The spec's initial price, 0 (section 5; issue 40 point 10), with no error before it is touched; the cap in
    // the field's helper; no summary is asked for without a price above 0.
    expect(price()).toHaveProperty('value', '0');
    expect(screen.getByText('Up to A$86.90 per ticket')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(cont().disabled).toBe(true);
    const summary = () => screen.getByRole('region', { name: 'Pricing summary' }).textContent;
    expect(summary()).toContain('Enter a price up to A$86.90 to see what the buyer pays.');
    expect(summary()).not.toContain('—');
    await new Promise((r) => setTimeout(r, 400));
    expect(calcCalls()).toEqual([]);

    fireEvent.change(price(), { target: { value: '40' } });
    await waitFor(() => expect(calcCalls().at(-1)).toEqual({ ticketId: 7, selectedPrice: 40, quantity: 1 }));
    await waitFor(() => expect(cont().disabled).toBe(false));
    expect(screen.getByRole('region', { name: 'Pricing summary' }).textContent).toContain('A$44.00');

    // While the next summary loads, Continue is disabled.
    let open!: () => void;
    calcGate = new Promise<void>((r) => {
      open = r;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity' }));
    await waitFor(() => expect(calcCalls().at(-1)).toEqual({ ticketId: 7, selectedPrice: 40, quantity: 2 }));
    expect(cont().disabled).toBe(true);
    await settle(() => open());
    await waitFor(() => expect(cont().disabled).toBe(false));
    expect(screen.getByRole('region', { name: 'Pricing summary' }).textContent).toContain('A$88.00');

    // Above the cap (86.90 + 0.001), while typing: the spec's "Invalid price" (section 5), no request, no dashes.
    const before = calcCalls().length;
    fireEvent.change(price(), { target: { value: '86.91' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid price');
    expect(price().getAttribute('aria-describedby')).toContain(alert.id);
    expect(cont().disabled).toBe(true);
    expect(summary()).not.toContain('—');
    expect(summary()).toContain('Enter a price up to A$86.90');
    await new Promise((r) => setTimeout(r, 400));
    expect(calcCalls().length).toBe(before);

    fireEvent.change(price(), { target: { value: '' } });
    fireEvent.blur(price());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Price is required'));
    expect(cont().disabled).toBe(true);
  });

  it('Continue locks the form; terms enable listing; POST /resell carries an Idempotency-Key', async () => {
    const onListed = mount();
    fireEvent.change(price(), { target: { value: '86.90' } });
    await waitFor(() => expect(cont().disabled).toBe(false));
    await settle(() => fireEvent.click(cont()));
    expect(price()).toHaveProperty('readOnly', true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Increase quantity' }).disabled).toBe(true);
    const list = screen.getByRole<HTMLButtonElement>('button', { name: 'List for resale' });
    expect(list.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox'));
    expect(list.disabled).toBe(false);
    await settle(() => fireEvent.click(list));
    await waitFor(() => expect(onListed).toHaveBeenCalledWith('http://x.test/r/abc'));
    const create = calls.find((c) => c.path === '/resell')!;
    expect(create.body).toEqual({
      userTicketId: 41,
      amountCount: 1,
      price: 86.9,
      currencyCode: 'AUD',
      currencySymbol: 'A$',
    });
    expect(create.headers['idempotency-key']).toMatch(/^[\w-]{16,}$/);
  });

  it('no payout account: the 30 s toast with the link to the payout tab and the follow-up message', async () => {
    createAnswer = () => jsonResponse({ message: 'api.resell.create.no_stripe' }, 403);
    const onListed = mount();
    fireEvent.change(price(), { target: { value: '50' } });
    await waitFor(() => expect(cont().disabled).toBe(false));
    await settle(() => fireEvent.click(cont()));
    fireEvent.click(screen.getByRole('checkbox'));
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'List for resale' })));
    const link = await screen.findByRole('link', { name: 'here' });
    expect(link.getAttribute('href')).toContain('PANEL_TAB=SETTINGS');
    expect(link.getAttribute('href')).toContain('SETTINGS_TAB=ACCOUNT_VERIFICATION');
    expect(link.closest('[role="alert"]')?.textContent).toContain('Please verify your payout account to continue');
    expect(link.parentElement?.textContent).toBe('Set up your payout account here to get paid for your sales.');
    expect(onListed).not.toHaveBeenCalled();
    // Following it keeps the form for the way back (issue 23).
    fireEvent.click(link);
    expect(JSON.parse(sessionStorage.getItem('tp.resellDraft')!)).toEqual({
      userTicketId: 41,
      quantity: 1,
      price: '50',
    });
    expect(window.location.search).toContain('SETTINGS_TAB=ACCOUNT_VERIFICATION');
  });

  it('restores the form kept for the payout tab, for its ticket only (issue 23)', async () => {
    sessionStorage.setItem('tp.resellDraft', JSON.stringify({ userTicketId: 41, quantity: 2, price: '60' }));
    mount();
    await waitFor(() => expect(price()).toHaveProperty('value', '60'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Quantity' }).value).toBe('2');
    await waitFor(() => expect(cont().disabled).toBe(false));
    expect(calcCalls().at(-1)).toEqual({ ticketId: 7, selectedPrice: 60, quantity: 2 });
    cleanup();
    sessionStorage.setItem('tp.resellDraft', JSON.stringify({ userTicketId: 99, quantity: 2, price: '60' }));
    mount();
    await new Promise((r) => setTimeout(r, 50));
    expect(price()).toHaveProperty('value', '0');
  });
});
