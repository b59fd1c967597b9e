/**
 * The ticket page's exchange queue section (issue 45): when the event's queue takes the ticket, "Sell to the queue at
 * face value" (after a confirmation that says it stops admitting until sold, and how the holder is paid); once
 * returned, that it does not admit and "Take it back" (refused while a fan's offer holds it, which the section says
 * instead). Nothing shows while the state loads, when the queue does not take the ticket, or when the state cannot be
 * read (the rest of the page stands without it). A refusal is a toast; one for want of a payout account offers the
 * payout settings.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExchangeReturnState } from '@tp/contract/exchange';
import { ApiError, errorKey } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { PAYOUT_ROUTE } from '../../../lib/resell-draft';
import { toast } from '../../../lib/toast';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { useExchangeReturn, useExchangeReturnChange } from '../api/exchange-return.api';

type Change = 'return' | 'withdraw';

export default function ExchangeReturn(props: { userTicketId: number }) {
  const { t } = useTranslation();
  const state = useExchangeReturn(props.userTicketId);
  const [confirm, setConfirm] = useState<Change | null>(null);
  const s = state.data;
  if (!s || (!s.returnable && s.status === null)) return null;
  const price = formatMoney(s.priceCents / 100, s.currencyCode);
  return (
    <section
      className="stack-sm box exchange-return"
      aria-labelledby="exchange-return-title"
      data-testid="exchange-return"
    >
      <h2 id="exchange-return-title" className="section-title">
        {t('exchange_return.title')}
      </h2>
      {s.status === null ? (
        <>
          <p>{t('exchange_return.offer', { price })}</p>
          <Button variant="secondary" onClick={() => setConfirm('return')}>
            {t('exchange_return.return')}
          </Button>
        </>
      ) : (
        <>
          <p>{t('exchange_return.returned', { price })}</p>
          {s.status === 'RESERVED' ? (
            <p className="ticket-card__meta">{t('exchange_return.reserved')}</p>
          ) : (
            <Button variant="ghost" onClick={() => setConfirm('withdraw')}>
              {t('exchange_return.withdraw')}
            </Button>
          )}
        </>
      )}
      {confirm && <ConfirmDialog state={s} change={confirm} price={price} onClose={() => setConfirm(null)} />}
    </section>
  );
}

/** "Sell to the queue?" / "Take it back?": keep things as they are, or go ahead (a toast says what happened). */
function ConfirmDialog(props: { state: ExchangeReturnState; change: Change; price: string; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useExchangeReturnChange(props.state.userTicketId, props.change);
  const onConfirm = async () => {
    try {
      await run.mutateAsync();
      toast.success(t(`exchange_return.${props.change}_done`));
      props.onClose();
    } catch (err) {
      console.error(`exchange ${props.change} failed`, err);
      if (err instanceof ApiError && err.message === 'api.exchange.return.no_payout_account') {
        toast.error(t('exchange_return.no_payout'));
        props.onClose();
        navigate(PAYOUT_ROUTE);
        return;
      }
      toast.error(t(errorKey(err)));
    }
  };
  return (
    <ConfirmModal
      title={t(`exchange_return.${props.change}_title`)}
      keepLabel={t(`exchange_return.${props.change}_keep`)}
      confirmLabel={t(`exchange_return.${props.change}`)}
      confirmVariant={props.change === 'return' ? 'primary' : 'danger'}
      pending={run.isPending}
      onConfirm={() => void onConfirm()}
      onClose={props.onClose}
    >
      <p>{t(`exchange_return.${props.change}_text`, { price: props.price })}</p>
    </ConfirmModal>
  );
}
