/**
 * Issue 48: a ticket with entry rules shows what it admits (days, zones, inside since: ui/entry-summary.tsx) on its
 * card in My tickets and on its page; a ticket without (`entryRules` absent, every ticket before issue 48) shows none.
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
const festival = (): MyTicket =>
  aTicket(5, {
    eventTimeZone: 'Europe/Madrid',
    entryRules: {
      days: ['2027-07-09', '2027-07-10', '2027-07-11'],
      entries: 'once_per_day',
      zones: ['VIP', 'Backstage'],
    },
    scans: [{ at: '2027-07-09T18:00:00.000Z', direction: 'in', zone: null, day: '2027-07-09' }],
  });

describe('a pass with entry rules in My tickets and on its page', () => {
  it('the card shows its days and zones; a card of a ticket with no rules does not', async () => {
    renderPanel(
      <ul>
        <TicketCard ticket={festival()} onOpen={() => undefined} />
        <TicketCard ticket={aTicket(6)} onOpen={() => undefined} />
      </ul>,
    );
    const [ruled, plain] = screen.getAllByRole('button');
    expect((await within(ruled).findByTestId('entry-days')).textContent).toBe('Fri 9 ✓ used · Sat 10 · Sun 11');
    expect(within(ruled).getByTestId('entry-zones').textContent).toBe('Zones: VIP · Backstage');
    expect(within(ruled).getByTestId('entry-state').textContent).toBe('One entry a day');
    expect(within(plain).queryByTestId('entry-summary')).toBeNull();
  });

  it('the ticket page shows them under the place', async () => {
    const tk = festival();
    fakeApi(({ path }) =>
      path === '/exchange/returns/5' ? jsonResponse({ message: 'api.not_found' }, 404) : jsonResponse(tk),
    );
    renderPanel(<TicketScreen />, { search: 'PANEL_TAB=TICKET&USER_TICKET_ID=5', data: [[queryKeys.config, config]] });
    await screen.findByRole('heading', { name: tk.eventName });
    const summary = await screen.findByTestId('entry-summary');
    expect(summary.getAttribute('aria-label')).toBe('Days and zones');
    expect(within(summary).getByTestId('entry-days').textContent).toBe('Fri 9 ✓ used · Sat 10 · Sun 11');
  });
});
