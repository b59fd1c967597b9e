/**
 * Tickets that look alike (issue 23): two entries of the same event and ticket type show their ticket numbers
 * (`#` + userTicketId) in the resell picker, so the holder can tell which one they open, gift or resell.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderPanel } from '../../test/render';
import { TicketPicker } from './components/ticket-picker';

// jsdom has no CSS.escape, which the listbox uses to scroll its active option into view (ids here are plain).
beforeEach(() => vi.stubGlobal('CSS', { escape: (s: string) => s }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ticket numbers', () => {
  it('the resell picker shows each entry’s number beside how many it holds', () => {
    const entry = (userTicketId: number) => ({
      userTicketId,
      ticketId: 7,
      ticketName: 'General admission',
      ticketLogo: null,
      availableTicketCount: 2,
      ticketPrice: 79,
      maxTicketPrice: 86.9,
      currencyCode: 'AUD',
      currencySymbol: 'A$',
    });
    renderPanel(
      <TicketPicker
        label="Ticket"
        tickets={[entry(41), entry(57)]}
        value={null}
        onChange={() => undefined}
        logoUrl={() => undefined}
      />,
    );
    fireEvent.click(screen.getByRole('combobox', { name: 'Ticket' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'General admissionTicket #41 · 2 available',
      'General admissionTicket #57 · 2 available',
    ]);
  });
});
