/**
 * Tickets that look alike (issue 23): two entries of the same event and ticket type show their ticket numbers
 * (`#` + userTicketId) in the gift picker, so the holder can tell which one they open, gift or resell.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderPanel } from '../../test/render';
import { aTicket } from '../../test/fixtures';
import { TicketSelect } from './components/ticket-select';

// jsdom has no CSS.escape, which the listbox uses to scroll its active option into view (ids here are plain).
beforeEach(() => vi.stubGlobal('CSS', { escape: (s: string) => s }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const twins = [aTicket(41, { isGiftable: true }), aTicket(57, { isGiftable: true })];

describe('ticket numbers', () => {
  it('the gift picker names each option with its number', () => {
    renderPanel(<TicketSelect tickets={twins} value={null} onChange={() => undefined} />);
    fireEvent.click(screen.getByRole('combobox', { name: 'Ticket to gift' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Harbour Lights FestivalGeneral admission · #41',
      'Harbour Lights FestivalGeneral admission · #57',
    ]);
    expect(screen.getByRole('option', { name: 'Harbour Lights Festival · General admission · #57' })).toBeTruthy();
  });
});
