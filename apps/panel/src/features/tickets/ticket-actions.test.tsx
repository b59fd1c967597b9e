// @vitest-environment jsdom
/**
 * Ticket page actions and benefit unlock (spec sections 2 Ticket page, 4 Benefit, 6): Gift only when
 * giftable and event access unused; the menu with only the allowed Swap/Resell, absent when used;
 * Unlock only for unlockable digital benefits, revealing the code and refreshing SINGLE_TICKET.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Benefit, MyTicket } from '@tp/contract';
import { initI18n } from '../../lib/i18n';
import { clientHooks } from '../../lib/api-client';
import { TicketActions, ticketActions } from './components/ticket-actions';
import { BenefitUnlock } from './components/benefit-unlock';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const ticket = (p: Partial<MyTicket>) =>
  ({
    userTicketId: 7,
    isGiftable: true,
    isSwappable: true,
    isResellable: true,
    eventAccessStatus: 'UNUSED',
    ...p,
  }) as MyTicket;
const benefit = (p: Partial<Benefit>): Benefit => ({
  userTicketBenefitId: 31,
  name: 'Merch store discount',
  shortDescription: null,
  fullDescription: null,
  type: 'benefits.digital',
  icon: null,
  iconColor: null,
  iconBgColor: null,
  image: null,
  purchasedAmount: 1,
  usedAmount: 0,
  lastUsedDate: null,
  validUntil: null,
  redeemCode: null,
  isUnlockable: true,
  ...p,
});

describe('ticketActions', () => {
  it('blocks every action once event access is used, and follows each flag otherwise', () => {
    expect(ticketActions(ticket({}))).toEqual({ gift: true, swap: true, resell: true });
    expect(ticketActions(ticket({ eventAccessStatus: 'USED' }))).toEqual({ gift: false, swap: false, resell: false });
    expect(ticketActions(ticket({ isGiftable: false, isResellable: false }))).toEqual({
      gift: false,
      swap: true,
      resell: false,
    });
  });
});

describe('TicketActions', () => {
  it('shows Gift and a menu with Swap and Resell; the menu opens the screen with USER_TICKET_ID', () => {
    render(<TicketActions ticket={ticket({})} />);
    expect(screen.getByRole('button', { name: 'Gift' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Swap ticket', 'Resell ticket']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Resell ticket' }));
    const q = new URLSearchParams(window.location.search);
    expect(q.get('PANEL_TAB')).toBe('RESELL');
    expect(q.get('USER_TICKET_ID')).toBe('7');
  });
  it('renders nothing for a used ticket, and no menu when neither swap nor resell is allowed', () => {
    const { container } = render(<TicketActions ticket={ticket({ eventAccessStatus: 'USED' })} />);
    expect(container.innerHTML).toBe('');
    cleanup();
    render(<TicketActions ticket={ticket({ isSwappable: false, isResellable: false })} />);
    expect(screen.getByRole('button', { name: 'Gift' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
  });
});

describe('BenefitUnlock', () => {
  const wrap = (b: Benefit, qc = new QueryClient()) =>
    render(
      <QueryClientProvider client={qc}>
        <BenefitUnlock benefit={b} userTicketId={7} ticketKey="7" />
      </QueryClientProvider>,
    );

  it('is absent for a benefit that is not an unlockable digital one', () => {
    const { container } = wrap(benefit({ type: 'benefits.perk' }));
    expect(container.innerHTML).toBe('');
    cleanup();
    expect(wrap(benefit({ isUnlockable: false })).container.innerHTML).toBe('');
  });

  it('unlocks, reveals the code and refreshes SINGLE_TICKET of that ticket', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ redeemCode: 'SLL-MEL-MERCH20' }), { status: 200 }));
    clientHooks.fetch = fetch as typeof clientHooks.fetch;
    const qc = new QueryClient();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    wrap(benefit({}), qc);
    expect(screen.queryByText('SLL-MEL-MERCH20')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('SLL-MEL-MERCH20')).toBeTruthy();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/mobile/unlock/7');
    expect(JSON.parse(String(init.body))).toEqual({ userTicketBenefitId: 31 });
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['SINGLE_TICKET', '7'] }));
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });

  it('shows an already unlocked code without an Unlock button', () => {
    wrap(benefit({ redeemCode: 'ABC-123' }));
    expect(screen.getByText('ABC-123')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });
});
