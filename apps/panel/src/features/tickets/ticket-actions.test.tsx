// @vitest-environment jsdom
/**
 * Ticket page actions and benefit unlock (spec sections 2 Ticket page, 4 Benefit, 6): Gift only when
 * giftable and event access unused; the menu with only the allowed Swap/Resell, absent when used;
 * Unlock only for unlockable digital benefits, revealing the code and refreshing SINGLE_TICKET.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Benefit, MyTicket } from '@tp/contract';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel, createTestQueryClient } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import { TicketActions, ticketActions } from './components/ticket-actions';
import { BenefitUnlock } from './components/benefit-unlock';

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
    renderPanel(<TicketActions ticket={ticket({})} />);
    expect(screen.getByRole('button', { name: 'Gift' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Swap ticket', 'Resell ticket']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Resell ticket' }));
    const q = new URLSearchParams(window.location.search);
    expect(q.get('PANEL_TAB')).toBe('RESELL');
    expect(q.get('USER_TICKET_ID')).toBe('7');
  });
  it('renders nothing for a used ticket, and no menu when neither swap nor resell is allowed', () => {
    const { container } = renderPanel(<TicketActions ticket={ticket({ eventAccessStatus: 'USED' })} />);
    expect(container.innerHTML).toBe('');
    cleanup();
    renderPanel(<TicketActions ticket={ticket({ isSwappable: false, isResellable: false })} />);
    expect(screen.getByRole('button', { name: 'Gift' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
  });
});

describe('BenefitUnlock', () => {
  const wrap = (b: Benefit, queryClient = createTestQueryClient()) =>
    renderPanel(<BenefitUnlock benefit={b} userTicketId={7} ticketKey="7" />, { queryClient });

  it('is absent for a benefit that is not an unlockable digital one', () => {
    const { container } = wrap(benefit({ type: 'benefits.perk' }));
    expect(container.innerHTML).toBe('');
    cleanup();
    expect(wrap(benefit({ isUnlockable: false })).container.innerHTML).toBe('');
  });

  it('unlocks, reveals the code and refreshes SINGLE_TICKET of that ticket', async () => {
    const fetch = fakeApi(() => jsonResponse({ redeemCode: 'SLL-MEL-MERCH20' }));
    const qc = createTestQueryClient();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    wrap(benefit({}), qc);
    expect(screen.queryByText('SLL-MEL-MERCH20')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('SLL-MEL-MERCH20')).toBeTruthy();
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/v1/mobile/unlock/7');
    expect(init?.body).toBe(JSON.stringify({ userTicketBenefitId: 31 }));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.singleTicket.detail('7') }));
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });

  it('shows an already unlocked code without an Unlock button', () => {
    wrap(benefit({ redeemCode: 'ABC-123' }));
    expect(screen.getByText('ABC-123')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });
});
