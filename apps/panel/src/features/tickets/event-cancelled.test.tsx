/**
 * Issue 46 (decision 045): a ticket of a cancelled event stays in My tickets with a "Cancelled" badge, and its page
 * opens with a notice that it no longer admits, the organiser's words when they gave any, and no action to move it;
 * its event-access item says "Cancelled" (not "Unused", as if it could still be used) and its detail that it no longer
 * admits, without a "valid until"; an access used before the cancel stays "Used". In both languages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { initI18n, loadLaterTexts } from '../../lib/i18n';
import type { MyTicket, PanelConfig } from '@tp/contract';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse } from '../../test/fetch';
import { aTicket, signedInForEachTest } from '../../test/fixtures';
import { TicketCard } from './components/ticket-card';
import TicketScreen from './components/ticket-screen';

signedInForEachTest();
afterEach(async () => {
  await initI18n('en');
  await loadLaterTexts();
});

const config = { orgWebsite: 'https://organiser.example', assetsBaseUrl: '' } as unknown as PanelConfig;
const cancelled = (reason: string | null): MyTicket =>
  aTicket(5, { eventCancelled: { at: '2029-12-20T10:00:00.000Z', reason } });
const NOTICE = 'This event was cancelled. Your ticket no longer admits.';
/** The event-access item's button on the ticket page (its name, its line and its badge). */
const accessItem = () => within(screen.getByRole('region', { name: /^(Your ticket|Tu entrada)$/ })).getByRole('button');
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
    // Nor a calendar entry for a show that is off; an event that goes ahead keeps it (the control).
    expect(screen.queryByRole('group', { name: 'Add to calendar' })).toBeNull();
    cleanup();
    await openPage(aTicket(5));
    expect(screen.getByRole('group', { name: 'Add to calendar' })).toBeTruthy();
  });

  it('without a reason, the notice alone', async () => {
    await openPage(cancelled(null));
    expect(notices().map((n) => n.textContent)).toEqual([NOTICE]);
  });

  it('the event-access item says Cancelled, not Unused; its detail says it no longer admits, without a valid-until', async () => {
    await openPage(cancelled(null));
    const item = accessItem();
    expect(item.textContent).toBe('Event accessNo longer admits: the event was cancelled.Cancelled');
    expect(within(item).getByText('Cancelled').className).toBe('badge badge--used');
    fireEvent.click(item);
    const detail = screen.getByRole('dialog', { name: 'Event access' });
    expect(detail.textContent).toContain('No longer admits: the event was cancelled.');
    expect(within(detail).getByText('Cancelled').className).toBe('badge badge--used');
    expect(detail.textContent).not.toContain('Unused');
    expect(detail.textContent).not.toContain('Valid until');
  });

  it('the control: an event that goes ahead shows Unused and its valid-until; one used before the cancel stays Used', async () => {
    await openPage(aTicket(5));
    expect(accessItem().textContent).toBe('Event accessAdmission to the event with your QR code.Unused');
    fireEvent.click(accessItem());
    expect(screen.getByRole('dialog', { name: 'Event access' }).textContent).toContain('Valid until');
    cleanup();
    await openPage({
      ...cancelled(null),
      eventAccessStatus: 'USED',
      eventAccessUsedOn: '2029-12-01T20:30:00.000Z',
    });
    expect(accessItem().textContent).toMatch(/^Event accessUsed on .+Used$/);
  });

  it('in Spanish: the access item and its detail', async () => {
    await initI18n('es');
    await loadLaterTexts();
    await openPage(cancelled(null));
    expect(accessItem().textContent).toBe('Acceso al eventoYa no da acceso: el evento se canceló.Cancelado');
    fireEvent.click(accessItem());
    expect(screen.getByRole('dialog', { name: 'Acceso al evento' }).textContent).not.toContain('Sin usar');
  });

  it('an event that goes ahead has no notice', async () => {
    await openPage(aTicket(5));
    expect(screen.queryByText(NOTICE)).toBeNull();
    expect(notices()).toEqual([]);
  });
});
