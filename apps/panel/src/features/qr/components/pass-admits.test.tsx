/**
 * The pass says what it admits (issue 20 point 6): the QR screen names the holder and, for each event of
 * today (or else the next ones), its name, date in the event's time zone, venue, ticket types and count.
 * The data is the holder's upcoming tickets (GET /list/ticket_listing?status=UPCOMING), the entry My
 * tickets shares.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { MyTicket } from '@tp/contract';
import { renderPanel } from '../../../test/render';
import { fakeApi, jsonResponse, serverPassAnswer } from '../../../test/fetch';
import { aTicket, aUser, signedInForEachTest } from '../../../test/fixtures';
import { admittedEvents } from '../admits/admitted-events';
import QrScreen from './qr-screen';

vi.mock('../pass/device-pass', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadDevicePass: () => Promise.resolve(null),
  renewDevicePass: () => Promise.reject(new Error('no Ed25519 in jsdom')),
}));

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A giftable, resellable ticket whose event starts in two hours (5 hours long) unless `over` says otherwise. */
function ticket(id: number, over: Partial<MyTicket>): MyTicket {
  const start = Date.now() + 2 * HOUR;
  return aTicket(id, {
    eventStartDateTime: iso(start),
    eventEndDateTime: iso(start + 5 * HOUR),
    isGiftable: true,
    isResellable: true,
    ...over,
  });
}

signedInForEachTest();

describe('the QR screen names what the pass admits', () => {
  it('shows the holder and, per event, its name, date, venue, ticket types and count', async () => {
    const live = ticket(1, { isLive: true, eventStartDateTime: iso(Date.now() - HOUR) });
    const tickets = [
      live,
      { ...live, userTicketId: 2 },
      { ...live, userTicketId: 3, ticketName: 'VIP' },
      ticket(4, { eventName: 'Winter Jazz', eventStartDateTime: iso(Date.now() + 40 * 24 * HOUR) }),
    ];
    fakeApi(({ path }) => {
      if (path === '/auth/me') return jsonResponse(aUser());
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse(tickets);
      return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    expect((await screen.findByTestId('pass-holder')).textContent).toBe('Holder: Alice Smith');
    const admits = await screen.findByRole('region', { name: 'What this pass admits' });
    const events = within(admits).getAllByRole('listitem');
    // Today's event only: the one in 40 days is not today's nor the next when one is under way.
    expect(events).toHaveLength(1);
    const text = events[0].textContent ?? '';
    expect(text).toContain('Harbour Lights Festival');
    expect(text).toContain('The Domain, Sydney');
    expect(text).toContain('3 tickets: 2 × General admission, 1 × VIP');
    // The date in the event's time zone, with the panel's date helper ("Sat, 28 Nov, 7:00 – 11:00 PM").
    expect(text).toMatch(/[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2}(?: \d{4})?, \d{1,2}:\d{2}/);
  });

  it('with nothing today, names the next event; with nothing upcoming, says so', () => {
    const now = new Date('2030-03-01T10:00:00Z');
    const soon = ticket(1, {
      eventName: 'Spring Fair',
      eventStartDateTime: '2030-03-05T18:00:00Z',
      eventEndDateTime: '2030-03-05T23:00:00Z',
    });
    const later = ticket(2, { eventStartDateTime: '2030-04-05T18:00:00Z', eventEndDateTime: '2030-04-05T23:00:00Z' });
    const next = admittedEvents([later, soon, { ...soon, userTicketId: 3 }], now);
    expect(next.map((e) => [e.eventName, e.count])).toEqual([['Spring Fair', 2]]);
    // "Today" is the event's own day: 23:30 in Sydney on 1 March is still 1 March there, not 2 March.
    const sydney = ticket(5, {
      eventTimeZone: 'Australia/Sydney',
      eventStartDateTime: '2030-03-01T12:30:00Z', // 23:30 AEDT, 1 March
      eventEndDateTime: '2030-03-01T14:00:00Z',
    });
    expect(admittedEvents([later, sydney], now).map((e) => e.eventName)).toEqual(['Harbour Lights Festival']);
    expect(admittedEvents([], now)).toEqual([]);
  });

  it('a ticket returned to the exchange queue is not counted as admitting; the screen says why (issue 45)', async () => {
    const live = ticket(1, { isLive: true, eventStartDateTime: iso(Date.now() - HOUR) });
    const tickets = [
      live,
      { ...live, userTicketId: 2, isReturnedToExchange: true },
      { ...live, userTicketId: 3, eventName: 'Winter Jazz', isReturnedToExchange: true },
    ];
    const events = admittedEvents(tickets);
    expect(events.map((e) => [e.eventName, e.count, e.returned])).toEqual([
      ['Harbour Lights Festival', 1, 1],
      ['Winter Jazz', 0, 1],
    ]);
    fakeApi(({ path }) => {
      if (path === '/auth/me') return jsonResponse(aUser());
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse(tickets);
      return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const admits = await screen.findByRole('region', { name: 'What this pass admits' });
    const items = within(admits).getAllByRole('listitem');
    expect(items[0].textContent).toContain('1 ticket: 1 × General admission');
    expect(within(items[0]).getByTestId('pass-returned').textContent).toBe(
      '1 ticket returned to the exchange queue: it does not admit until it sells or you take it back.',
    );
    // An event whose only ticket is returned says so, and no count of tickets it admits.
    expect(items[1].textContent).not.toMatch(/\d tickets?:/);
    expect(within(items[1]).getByTestId('pass-returned')).toBeTruthy();
  });

  it("a cancelled event admits no ticket; the screen says so, with the organiser's words (issue 46)", async () => {
    const live = ticket(1, { isLive: true, eventStartDateTime: iso(Date.now() - HOUR) });
    const off = { at: iso(Date.now() - 24 * HOUR), reason: 'The venue flooded.' };
    const tickets = [
      { ...live, eventCancelled: off },
      { ...live, userTicketId: 2, eventCancelled: off, isReturnedToExchange: true },
      { ...live, userTicketId: 3, eventName: 'Winter Jazz', eventCancelled: { ...off, reason: null } },
    ];
    expect(admittedEvents(tickets).map((e) => [e.eventName, e.count, e.cancelled?.reason])).toEqual([
      ['Harbour Lights Festival', 0, 'The venue flooded.'],
      ['Winter Jazz', 0, null],
    ]);
    fakeApi(({ path }) => {
      if (path === '/auth/me') return jsonResponse(aUser());
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse(tickets);
      return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const admits = await screen.findByRole('region', { name: 'What this pass admits' });
    const items = within(admits).getAllByRole('listitem');
    const notice = 'This event was cancelled. Your ticket no longer admits.';
    expect(within(items[0]).getByTestId('pass-cancelled').textContent).toBe(notice);
    expect(items[0].textContent).toContain('From the organiser: The venue flooded.');
    // No count of tickets it admits, and the returned ticket is not named apart: none of them admits anyway.
    expect(items[0].textContent).not.toMatch(/\d tickets?:/);
    expect(within(items[0]).queryByTestId('pass-returned')).toBeNull();
    expect(within(items[1]).getByTestId('pass-cancelled').textContent).toBe(notice);
    expect(items[1].textContent).not.toContain('From the organiser');
  });

  it('says what a pass with entry rules admits, once per ticket type, and nothing more for others (issue 48)', async () => {
    const live = ticket(1, {
      isLive: true,
      eventStartDateTime: iso(Date.now() - HOUR),
      eventTimeZone: 'Europe/Madrid',
    });
    const entry = {
      entryRules: { days: ['2027-07-09', '2027-07-10'], entries: 'reentry' as const, zones: ['VIP'] },
      scans: [{ at: '2027-07-09T12:02:00.000Z', direction: 'in' as const, zone: null, day: '2027-07-09' }],
      eventAccessUsedOn: '2027-07-09T12:02:00.000Z',
    };
    const tickets = [
      { ...live, ticketName: 'Weekend', ...entry },
      { ...live, userTicketId: 2, ticketName: 'Weekend', ...entry },
      { ...live, userTicketId: 3 },
    ];
    expect(admittedEvents(tickets).map((e) => e.entries.map((x) => x.ticket.ticketName))).toEqual([['Weekend']]);
    fakeApi(({ path }) => {
      if (path === '/auth/me') return jsonResponse(aUser());
      if (path === '/list/ticket_listing?status=UPCOMING') return jsonResponse(tickets);
      return serverPassAnswer(path) ?? jsonResponse({ message: 'api.not_found' }, 404);
    });
    renderPanel(<QrScreen />, { search: 'PANEL_TAB=QR' });
    const line = await screen.findByTestId('pass-entry');
    expect(line.textContent).toBe('WeekendFri 9 ✓ used · Sat 10Zones: VIPInside since 2:02 PM');
    expect(screen.getAllByTestId('pass-entry')).toHaveLength(1);
  });
});
