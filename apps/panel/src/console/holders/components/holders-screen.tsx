/**
 * Holders (issue 21): the organisation's tickets with their current holder, searched by e-mail, name or id, or
 * the number the holder reads ("Ticket #13", shown beside the id: issue 41, point 4), filtered by event and status
 * (holders-filters.tsx), paged by cursor (tickets-table.tsx); a ticket's drawer with its history, re-send of the
 * ticket e-mail and revoke with a confirm (ticket-drawer.tsx); the chosen event's attendees as a CSV file
 * (export-attendees.api.ts).
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api';
import { goUp, navigate } from '../../routing';
import { Pager, useCursorPages } from '../../table-region';
import { useTickets } from '../api/tickets.api';
import { HoldersFilters } from './holders-filters';
import { TicketDrawer } from './ticket-drawer';
import { TicketsTable } from './tickets-table';

/**
 * The Holders screen; `event` (from the URL, /console/events/:event/holders) filters by that event, `ticket`
 * (…/holders/:ticket) opens that ticket's drawer (routing.ts).
 */
export function HoldersScreen({ event: eventFilter, ticket }: { event?: string; ticket?: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const event = eventFilter ?? '';
  const pages = useCursorPages<string>();
  const open = (externalId: string) =>
    navigate({ screen: 'holders', ...(eventFilter ? { event: eventFilter } : {}), ticket: externalId });
  const close = useCallback(
    () => goUp({ screen: 'holders', ...(eventFilter ? { event: eventFilter } : {}) }),
    [eventFilter],
  );
  const tickets = useTickets({ search, status, event }, pages.cursor);
  // A search the API refuses (too long, a NUL) is shown at the search field (issue 41, point 2).
  const searchError = tickets.error instanceof ApiError && tickets.error.fields.search !== undefined;
  return (
    <section className="stack">
      <h1>{t('console.holders.title')}</h1>
      <HoldersFilters
        search={search}
        status={status}
        event={event}
        searchError={searchError}
        onSearch={(value) => {
          setSearch(value);
          pages.reset();
        }}
        onStatus={(value) => {
          setStatus(value);
          pages.reset();
        }}
        onEvent={(chosen) => {
          navigate({ screen: 'holders', ...(chosen ? { event: chosen } : {}) }, { replace: true });
          pages.reset();
        }}
      />
      <TicketsTable tickets={tickets} onOpen={open} />
      <Pager pages={pages} nextCursor={tickets.data?.nextCursor} />
      {ticket && <TicketDrawer externalId={ticket} onClose={close} />}
    </section>
  );
}
