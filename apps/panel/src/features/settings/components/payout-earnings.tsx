/**
 * The seller's earnings on the payout tab (issue 13, item 6): each sale with its date, quantity, what the
 * seller is owed (two decimals, the listing's currency) and whether it has been paid out. No sale yet: the
 * way to list a ticket (issue 13).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../../lib/api-client';
import { formatMoney, formatWhen } from '../../../lib/format';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/bits';
import { useEarnings } from '../api/account-rights.api';

export function PayoutEarnings() {
  const { t } = useTranslation();
  const id = useId();
  const earnings = useEarnings();
  let body: React.ReactNode;
  if (earnings.isLoading) body = <Skeleton height={64} radius={12} />;
  else if (earnings.isError || !earnings.data)
    body = (
      <div className="error-state" role="alert">
        <p>{t(errorKey(earnings.error))}</p>
        <Button variant="secondary" onClick={() => void earnings.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  else if (earnings.data.length === 0)
    body = (
      <div className="stack-sm earnings__empty">
        <p className="muted">{t('earnings.empty')}</p>
        <div>
          <Button
            variant="secondary"
            className="btn--small"
            onClick={() => navigate({ tab: 'RESELL', settingsTab: null, userTicketId: null, ticketName: null })}
          >
            {t('feedback.resell_a_ticket')}
          </Button>
        </div>
      </div>
    );
  else
    body = (
      <ul className="earnings" aria-labelledby={`${id}-title`}>
        {earnings.data.map((e) => (
          <li key={e.orderId} className="earnings__item">
            <div className="earnings__main">
              <span className="earnings__name">{e.name}</span>
              <span className="muted earnings__meta">
                {t('earnings.sold_on', { date: formatWhen(e.soldDate), count: e.quantity })}
              </span>
            </div>
            <div className="earnings__side">
              <span className="earnings__amount">{formatMoney(e.amountCents / 100, e.currencyCode)}</span>
              <span className={`earnings__status earnings__status--${e.payoutStatus.toLowerCase()}`}>
                {t(`earnings.status_${e.payoutStatus}`)}
              </span>
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <section className="stack-sm earnings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('earnings.title')}
      </h2>
      {body}
    </section>
  );
}
