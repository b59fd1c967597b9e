/**
 * My tickets' "Waiting for tickets" section (issue 45): the holder's entries still in an exchange queue, each with the
 * event, the ticket type and quantity, the true position (1 = next) or "in the draw", and while an offer is open the
 * time the tickets are held until; buying an offer (its payment page); leaving the queue, or declining an offer, after
 * a confirmation. Nothing shows while
 * the entries load or when there are none; a failed load shows its error with a retry, under the tickets.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExchangeEntry } from '@tp/contract/exchange';
import { errorKey, failureKey } from '../../../lib/api-client';
import { formatDate, formatWhen } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Badge, ErrorState } from '../../../ui/bits';
import { Button } from '../../../ui/button';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { leavePanel } from '../../../lib/leave-panel';
import {
  isActiveEntry,
  useExchangeCheckout,
  useExchangeEntries,
  useExchangeEntryAction,
} from '../api/exchange-entries.api';

type Action = 'leave' | 'decline';

export function ExchangeEntries() {
  const { t } = useTranslation();
  const entries = useExchangeEntries();
  const [confirm, setConfirm] = useState<{ entry: ExchangeEntry; action: Action } | null>(null);
  if (entries.isError && !entries.data)
    return (
      <ErrorState message={t(failureKey(entries.error))} onRetry={entries.refetch} retrying={entries.isFetching} />
    );
  const active = entries.data?.filter(isActiveEntry) ?? [];
  if (active.length === 0) return null;
  return (
    <section className="stack-sm" aria-labelledby="exchange-entries-title">
      <h2 id="exchange-entries-title" className="section-title">
        {t('exchange_entries.title')}
      </h2>
      <ul className="ticket-list">
        {active.map((e) => (
          <li key={e.id} className="box exchange-entry">
            <span className="exchange-entry__top">
              <span className="ticket-card__name">{e.event.name}</span>
              {e.status === 'OFFERED' && <Badge tone="live">{t('exchange_entries.offered')}</Badge>}
            </span>
            <span className="ticket-card__type">
              {t('exchange_entries.quantity', { count: e.quantity, type: e.ticketType.name })}
            </span>
            <span className="ticket-card__meta">{formatDate(e.event.startsAt, e.event.timeZone)}</span>
            <span className="exchange-entry__state">
              {e.status === 'OFFERED' && e.offer
                ? t('exchange_entries.held_until', { time: formatWhen(e.offer.expiresAt) })
                : e.inDraw || e.position === null
                  ? t('exchange_entries.in_draw')
                  : t('exchange_entries.position', { position: e.position })}
            </span>
            <span className="exchange-entry__actions">
              {e.status === 'OFFERED' && <BuyButton entry={e} />}
              {e.status === 'OFFERED' && (
                <Button variant="secondary" onClick={() => setConfirm({ entry: e, action: 'decline' })}>
                  {t('exchange_entries.decline')}
                </Button>
              )}
              <Button variant="ghost" onClick={() => setConfirm({ entry: e, action: 'leave' })}>
                {t('exchange_entries.leave')}
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {confirm && <ConfirmDialog {...confirm} onClose={() => setConfirm(null)} />}
    </section>
  );
}

/** "Buy my tickets": opens the offer's checkout (the payment page); a refusal says why (the offer ended). */
function BuyButton({ entry }: { entry: ExchangeEntry }) {
  const { t } = useTranslation();
  const checkout = useExchangeCheckout();
  const onBuy = async () => {
    try {
      leavePanel.to((await checkout.mutateAsync(entry.id)).checkoutUrl);
    } catch (err) {
      console.error('exchange checkout failed', err);
      toast.error(t(errorKey(err)));
    }
  };
  return (
    <Button loading={checkout.isPending || checkout.isSuccess} onClick={() => void onBuy()}>
      {t('exchange_entries.buy')}
    </Button>
  );
}

/** "Leave the queue?" / "Decline the offer?": stay, or go ahead (the entry ends; a toast says so or gives the error). */
function ConfirmDialog(props: { entry: ExchangeEntry; action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useExchangeEntryAction(props.action);
  const onConfirm = async () => {
    try {
      await run.mutateAsync(props.entry.id);
      toast.success(t(`exchange_entries.${props.action}_done`));
      props.onClose();
    } catch (err) {
      console.error(`exchange ${props.action} failed`, err);
      toast.error(t(errorKey(err)));
    }
  };
  return (
    <ConfirmModal
      title={t(`exchange_entries.${props.action}_title`)}
      keepLabel={t(`exchange_entries.${props.action}_keep`)}
      confirmLabel={t(`exchange_entries.${props.action}`)}
      confirmVariant="danger"
      pending={run.isPending}
      onConfirm={() => void onConfirm()}
      onClose={props.onClose}
    >
      <p>
        {t(`exchange_entries.${props.action}_text`, {
          event: props.entry.event.name,
          type: props.entry.ticketType.name,
        })}
      </p>
    </ConfirmModal>
  );
}
