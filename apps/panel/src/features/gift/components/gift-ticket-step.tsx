import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState, SeeMyTicketsButton } from '../../../ui/empty-state';
import type { useTickets } from '../../../lib/ticket-queries';
import { giftErrorKey } from '../gift.validation';
import { TicketSelect } from './ticket-select';
import { GiftTicketCard } from './gift-card';

/**
 * Step 1: the verified ticket as a card (editable unless sending), else the holder's upcoming tickets to choose
 * from, with the verify's progress and the not-giftable error (gift_tickets.cannot_be_gifted).
 */
export function GiftTicketStep(p: {
  tickets: ReturnType<typeof useTickets>;
  choice: MyTicket | null;
  ticket: MyTicket | null;
  notGiftable: boolean;
  verifying: boolean;
  errorId: string;
  assetsBaseUrl: string | undefined;
  onChoose: (tk: MyTicket) => void;
  onEdit: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const { tickets } = p;
  if (p.ticket) return <GiftTicketCard ticket={p.ticket} assetsBaseUrl={p.assetsBaseUrl} onEdit={p.onEdit} />;
  if (tickets.isLoading) {
    return (
      <div className="stack-sm" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton width={120} height={18} />
        <Skeleton height={64} radius={12} />
      </div>
    );
  }
  if (tickets.isError)
    return <ErrorState message={t(giftErrorKey(tickets.error, 'request_failed'))} onRetry={tickets.refetch} />;
  if (!tickets.data?.length) {
    return (
      <EmptyState message={t('gift.empty')} hint={t('feedback.gift_empty_hint')}>
        <SeeMyTicketsButton variant="secondary" />
      </EmptyState>
    );
  }
  return (
    <div className="stack-sm">
      <TicketSelect
        tickets={tickets.data}
        value={p.choice}
        onChange={p.onChoose}
        busy={p.verifying}
        assetsBaseUrl={p.assetsBaseUrl}
        invalid={p.notGiftable}
        describedBy={p.notGiftable ? p.errorId : undefined}
      />
      {p.verifying && (
        <p className="muted small" role="status">
          {t('gift.checking')}
        </p>
      )}
      {p.notGiftable && (
        <p id={p.errorId} className="field__error" role="alert">
          {t('gift_tickets.cannot_be_gifted')}
        </p>
      )}
    </div>
  );
}
