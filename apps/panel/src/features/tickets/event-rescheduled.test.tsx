/**
 * Issue 46 (decision 047): a ticket of an event that moved to a new date carries a "New date" badge in My tickets,
 * and its page a short notice above the (new) date; a cancelled event shows its cancellation only.
 */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { MyTicket, PanelConfig } from '@tp/contract';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import { aTicket, signedInForEachTest } from '../../test/fixtures';
import { TicketCard } from './components/ticket-card';
import TicketScreen from './components/ticket-screen';

signedInForEachTest();

const config = { orgWebsite: 'https://organiser.example', assetsBaseUrl: '' } as unknown as PanelConfig;
const moved = (extra: Partial<MyTicket> = {}): MyTicket =>
  aTicket(5, { eventRescheduled: { at: '2029-12-20T10:00:00.000Z' }, ...extra });
const NOTICE = 'This event has a new date.';

const openPage = async (tk: MyTicket) => {
  fakeApi(({ path }) =>
    path === '/exchange/returns/5' ? jsonResponse({ message: 'api.not_found' }, 404) : jsonResponse(tk),
  );
  renderPanel(<TicketScreen />, { search: 'PANEL_TAB=TICKET&USER_TICKET_ID=5', data: [[queryKeys.config, config]] });
  return screen.findByRole('heading', { name: tk.eventName });
};

describe('an event with a new date in the panel', () => {
  it('My tickets: the card carries a New date badge like the cancelled one; other cards do not', () => {
    renderPanel(
      <ul>
        <TicketCard ticket={moved()} onOpen={() => undefined} />
        <TicketCard ticket={aTicket(6)} onOpen={() => undefined} />
        <TicketCard
          ticket={moved({ eventCancelled: { at: '2029-12-21T10:00:00.000Z', reason: null } })}
          onOpen={() => undefined}
        />
      </ul>,
    );
    const [newDate, same, cancelled] = screen.getAllByRole('button');
    expect(within(newDate).getByText('New date').className).toBe('badge badge--used');
    expect(within(same).queryByText('New date')).toBeNull();
    expect(within(cancelled).queryByText('New date')).toBeNull();
    expect(within(cancelled).getByText('Cancelled')).toBeTruthy();
  });

  it('the ticket page says so above the event and its (new) date; an event on its first date says nothing', async () => {
    await openPage(moved());
    const notice = screen.getByText(NOTICE);
    const heading = screen.getByRole('heading', { name: 'Harbour Lights Festival' });
    expect(notice.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a cancelled event shows its cancellation, not the new date', async () => {
    await openPage(moved({ eventCancelled: { at: '2029-12-21T10:00:00.000Z', reason: null } }));
    expect(screen.getByText('This event was cancelled. Your ticket no longer admits.')).toBeTruthy();
    expect(screen.queryByText(NOTICE)).toBeNull();
  });

  it('no notice without a new date', async () => {
    await openPage(aTicket(5));
    expect(screen.queryByText(NOTICE)).toBeNull();
  });
});
