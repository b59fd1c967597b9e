/**
 * Issue 46 (decision 045): a ticket of a cancelled event stays in My tickets with a "Cancelled" badge, and its page
 * opens with a notice that it no longer admits, the organiser's words when they gave any, and no action to move it.
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
const cancelled = (reason: string | null): MyTicket =>
  aTicket(5, { eventCancelled: { at: '2029-12-20T10:00:00.000Z', reason } });
const NOTICE = 'This event was cancelled. Your ticket no longer admits.';
/** The page's cancellation notices: the box that holds the notice's text. */
const notices = () => screen.queryAllByText(NOTICE).map((el) => el.closest('section') as HTMLElement);

const openPage = async (tk: MyTicket) => {
  fakeApi(({ path }) =>
    path === '/exchange/returns/5' ? jsonResponse({ message: 'api.not_found' }, 404) : jsonResponse(tk),
  );
  renderPanel(<TicketScreen />, { search: 'PANEL_TAB=TICKET&USER_TICKET_ID=5', data: [[queryKeys.config, config]] });
  return screen.findByRole('heading', { name: tk.eventName });
};

describe('a cancelled event in the panel', () => {
  it('My tickets: the card carries a Cancelled badge; a card of an event that goes ahead does not', () => {
    renderPanel(
      <ul>
        <TicketCard ticket={cancelled(null)} onOpen={() => undefined} />
        <TicketCard ticket={aTicket(6)} onOpen={() => undefined} />
      </ul>,
    );
    const [gone, on] = screen.getAllByRole('button');
    expect(within(gone).getByText('Cancelled').className).toBe('badge badge--used');
    expect(within(on).queryByText('Cancelled')).toBeNull();
  });

  it("the ticket page opens with the notice and the organiser's words, and offers no gift, swap or resell", async () => {
    await openPage(cancelled('The venue flooded. Refunds go out this week.'));
    const notice = notices()[0];
    expect(notice.textContent).toBe(`${NOTICE}From the organiser: The venue flooded. Refunds go out this week.`);
    // The notice comes first, before the event's details.
    const heading = screen.getByRole('heading', { name: 'Harbour Lights Festival' });
    expect(notice.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Gift' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
  });

  it('without a reason, the notice alone', async () => {
    await openPage(cancelled(null));
    expect(notices().map((n) => n.textContent)).toEqual([NOTICE]);
  });

  it('an event that goes ahead has no notice', async () => {
    await openPage(aTicket(5));
    expect(screen.queryByText(NOTICE)).toBeNull();
    expect(notices()).toEqual([]);
  });
});
