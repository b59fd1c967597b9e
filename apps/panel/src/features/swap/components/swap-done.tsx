/**
 * A finished swap (issue 13): what changed, from which ticket type to which, how many, and what was paid
 * (an upgrade) or not refunded (a downgrade, spec section 4 Swap). Its heading is focused when it shows.
 */
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { Button } from '../../../ui/button';
import { SeeMyTicketsButton } from '../../../ui/empty-state';
import { SuccessSection } from '../../../ui/success-heading';
import type { SwapSummary } from '../swap-outcome';

export function SwapDone(props: { summary: SwapSummary; onAgain: () => void }) {
  const { t } = useTranslation();
  const s = props.summary;
  const amount = formatMoney(s.amount, s.currencyCode ?? 'AUD');
  const money =
    s.amount === 0
      ? t('feedback.swap_even')
      : s.swapType === 'UPGRADE'
        ? t('feedback.swap_paid', { amount })
        : t('feedback.swap_not_refunded', { amount });
  return (
    <SuccessSection
      className="swap-done stack-sm"
      headingClassName="section-title"
      title={t('feedback.swap_done_title')}
    >
      <p className="muted small">{t('feedback.swap_done_text')}</p>
      <dl className="swap-summary">
        <dt>{t('feedback.swap_from')}</dt>
        <dd>
          {t('feedback.swap_count', { count: s.count })} · {s.fromName}
          {s.eventName ? ` · ${s.eventName}` : ''}
        </dd>
        <dt>{t('feedback.swap_to')}</dt>
        <dd>
          {t('feedback.swap_count', { count: s.count })} · {s.toName}
          {s.eventName ? ` · ${s.eventName}` : ''}
        </dd>
        <dt>{t('feedback.swap_money')}</dt>
        <dd>{money}</dd>
      </dl>
      <div className="swap-done__actions">
        <SeeMyTicketsButton />
        <Button variant="secondary" onClick={props.onAgain}>
          {t('feedback.swap_again')}
        </Button>
      </div>
    </SuccessSection>
  );
}
