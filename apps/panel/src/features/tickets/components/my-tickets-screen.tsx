/**
 * MY_TICKET (spec section 2): tabs UPCOMING and PAST, cards, skeleton, empty and error states. An empty tab
 * offers the next step (issue 13): upcoming, redeem a code or find events on the organiser's site; past, the
 * upcoming tab. The upcoming tab ends with the holder's places in exchange queues (issue 45); opened from an event's
 * queue page, the screen first asks whether to join it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import type { TicketStatus } from '@tp/contract';
import { usePanelConfig } from '../../../lib/queries';
import { navigate } from '../../../lib/use-route';
import { Tabs } from '../../../ui/tabs';
import { Button } from '../../../ui/button';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState } from '../../../ui/empty-state';
import { useTickets } from '../../../lib/ticket-queries';
import { TicketCard } from './ticket-card';
import { ExchangeEntries } from './exchange-entries';
import { ExchangeJoin } from './exchange-join';
import '../tickets.css';

export default function MyTicketsScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TicketStatus>('UPCOMING');
  const tickets = useTickets(status);
  const config = usePanelConfig();
  return (
    <div className="stack">
      <h1 className="screen-title">{t('tickets.title')}</h1>
      <ExchangeJoin />
      <Tabs
        label={t('tickets.title')}
        value={status}
        onChange={setStatus}
        options={[
          { value: 'UPCOMING', label: t('tickets.upcoming') },
          { value: 'PAST', label: t('tickets.past') },
        ]}
      />
      <div role="tabpanel" aria-busy={tickets.isLoading}>
        {tickets.isLoading ? (
          <ul className="ticket-list" aria-label={t('common.loading')}>
            {[0, 1, 2].map((i) => (
              <li key={i} className="ticket-card ticket-card--skeleton">
                <Skeleton height={64} width={64} radius={12} />
                <span className="stack-sm" style={{ flex: 1 }}>
                  <Skeleton width="60%" />
                  <Skeleton width="40%" />
                  <Skeleton width="80%" />
                </span>
              </li>
            ))}
          </ul>
        ) : tickets.isError && !tickets.data ? (
          <ErrorState message={t(failureKey(tickets.error))} onRetry={tickets.refetch} />
        ) : tickets.data && tickets.data.length > 0 ? (
          <ul className="ticket-list">
            {tickets.data.map((tk) => (
              <TicketCard
                key={tk.userTicketId}
                ticket={tk}
                assetsBaseUrl={config?.assetsBaseUrl}
                onOpen={() =>
                  navigate({ tab: 'TICKET', userTicketId: String(tk.userTicketId), ticketName: tk.ticketName })
                }
              />
            ))}
          </ul>
        ) : status === 'UPCOMING' ? (
          <EmptyState message={t('tickets.empty')} hint={t('feedback.tickets_upcoming_hint')}>
            <Button onClick={() => navigate({ tab: 'REDEEM', userTicketId: null, ticketName: null })}>
              {t('feedback.redeem_code')}
            </Button>
            {config?.orgWebsite && (
              <a className="btn btn--secondary" href={config.orgWebsite} target="_blank" rel="noopener noreferrer">
                {t('feedback.find_events')}
              </a>
            )}
          </EmptyState>
        ) : (
          <EmptyState message={t('feedback.tickets_past_empty')} hint={t('feedback.tickets_past_hint')}>
            <Button variant="secondary" onClick={() => setStatus('UPCOMING')}>
              {t('feedback.see_upcoming')}
            </Button>
          </EmptyState>
        )}
      </div>
      {status === 'UPCOMING' && <ExchangeEntries />}
    </div>
  );
}
