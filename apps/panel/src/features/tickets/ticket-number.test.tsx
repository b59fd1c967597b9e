/**
 * Tickets that look alike (issue 23): two entries of the same event and ticket type show their ticket numbers
 * (`#` + userTicketId) in the My-tickets cards, so the holder can tell which one they open, gift or resell.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderPanel } from '../../test/render';
import { aTicket } from '../../test/fixtures';
import { TicketCard } from './components/ticket-card';

afterEach(() => cleanup());

const twins = [aTicket(41), aTicket(57)];

describe('ticket numbers', () => {
  it('My-tickets cards of the same event and type differ by their number, visibly and by name', () => {
    renderPanel(
      <ul>
        {twins.map((tk) => (
          <TicketCard key={tk.userTicketId} ticket={tk} onOpen={() => undefined} />
        ))}
      </ul>,
    );
    const cards = screen.getAllByRole('button');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Harbour Lights Festival, General admission, Ticket #41',
      'Harbour Lights Festival, General admission, Ticket #57',
    ]);
    expect(cards[0].textContent).toContain('· Ticket #41');
    expect(cards[1].textContent).toContain('· Ticket #57');
  });
});
