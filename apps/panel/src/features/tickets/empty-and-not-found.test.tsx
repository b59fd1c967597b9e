/**
 * Issue 13, feedback that tells the truth: an empty tickets tab offers the next step (upcoming: redeem a
 * code or find events on the organiser's site; past: the upcoming tab), a ticket without benefits says so,
 * and "Ticket not found" offers the way back to the list instead of a Retry that cannot help.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { MyTicket, PanelConfig } from '@tp/contract';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import MyTicketsScreen from './components/my-tickets-screen';
import TicketScreen from './components/ticket-screen';

const config = {
  orgWebsite: 'https://organiser.example',
  assetsBaseUrl: '',
} as unknown as PanelConfig;
const tab = () => new URLSearchParams(window.location.search).get('PANEL_TAB');

beforeEach(() => localStorage.setItem('tp.accessToken', 'token'));
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('my tickets, empty', () => {
  it('upcoming: says what would show here, offers Redeem a code and the organiser site', async () => {
    fakeApi(() => jsonResponse([]));
    renderPanel(<MyTicketsScreen />, { search: 'PANEL_TAB=MY_TICKET', data: [[queryKeys.config, config]] });
    expect(await screen.findByText('No ticket available')).toBeTruthy();
    expect(screen.getByText(/redeem with a resale code show here/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find events' }).getAttribute('href')).toBe('https://organiser.example');
    fireEvent.click(screen.getByRole('button', { name: 'Redeem a code' }));
    expect(tab()).toBe('REDEEM');
  });

  it('past: says so and leads back to the upcoming tab', async () => {
    fakeApi((r) =>
      jsonResponse(
        r.path.endsWith('UPCOMING')
          ? [
              {
                userTicketId: 1,
                ticketName: 'GA',
                eventName: 'Fest',
                eventStartDateTime: '2030-01-01T20:00:00Z',
                eventEndDateTime: '2030-01-01T23:00:00Z',
                eventTimeZone: 'UTC',
                benefits: [],
              },
            ]
          : [],
      ),
    );
    renderPanel(<MyTicketsScreen />, { search: 'PANEL_TAB=MY_TICKET', data: [[queryKeys.config, config]] });
    fireEvent.click(await screen.findByRole('tab', { name: 'Past' }));
    expect(await screen.findByText('No past events yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'See upcoming tickets' }));
    expect(screen.getByRole('tab', { name: 'Upcoming' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('ticket page', () => {
  it('"Ticket not found" offers the way back to the list, not Try again', async () => {
    fakeApi(() => jsonResponse({ message: 'api.ticket.not_found' }, 404));
    renderPanel(<TicketScreen />, {
      search: 'PANEL_TAB=TICKET&USER_TICKET_ID=999',
      data: [[queryKeys.config, config]],
    });
    expect(await screen.findByText('Ticket not found')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /try again|retry/i })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to my tickets' }));
    expect(tab()).toBe('MY_TICKET');
  });

  it('a ticket without benefits says so and links to the organiser', async () => {
    const ticket = {
      userTicketId: 5,
      ticketName: 'GA',
      eventName: 'Fest',
      eventStartDateTime: '2030-01-01T20:00:00Z',
      eventEndDateTime: '2030-01-01T23:00:00Z',
      eventTimeZone: 'UTC',
      eventAccessStatus: 'UNUSED',
      benefits: [],
    } as unknown as MyTicket;
    fakeApi(() => jsonResponse(ticket));
    renderPanel(<TicketScreen />, { search: 'PANEL_TAB=TICKET&USER_TICKET_ID=5', data: [[queryKeys.config, config]] });
    expect(await screen.findByText('This ticket comes with no add-ons.')).toBeTruthy();
    expect(screen.getByRole('link', { name: "Visit the organiser's site" })).toBeTruthy();
    // The event-access row says its state once, in its badge (issue 40 point 11: not "Event access · Unused ·
    // UNUSED"); the line under its name says what it is.
    const access = screen.getByRole('button', { name: /Event access/ });
    expect((access.textContent ?? '').match(/unused/gi)).toHaveLength(1);
    expect(access.textContent).toContain('Admission to the event with your QR code.');
  });
});
