import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/bits';
import { EmptyState } from '../../../ui/empty-state';
import { SwapIcon } from '../../../ui/icons';
import type { SwapTicket } from '../api/swappable-tickets.api';
import { useSwapTargets } from '../api/swap-targets.api';
import type { SwapSelection } from '../hooks/use-swap-selection';
import { cardFields } from './card-fields';
import { SwapCard } from './swap-card';

/**
 * Step 2: the targets of the selected base ticket, each with its price difference (sold out when fewer than
 * the count are left); choosing one starts the swap. Cancel resets the selection.
 */
export function SwapTargetStep(p: {
  base: SwapTicket;
  selection: SwapSelection;
  assetsBaseUrl: string | undefined;
  starting: { isPending: boolean; swapPairId: number | undefined };
  onChoose: (target: SwapTicket) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const { base, selection } = p;
  const targets = useSwapTargets(selection.baseId);
  return (
    <section className="stack" aria-labelledby="swap-target-title" aria-busy={targets.isLoading || undefined}>
      <h2 id="swap-target-title" className="section-title">
        {t('swap.step_target', { count: selection.count, name: base.name })}
      </h2>
      {targets.isLoading ? (
        <div className="stack">
          {[0, 1].map((i) => (
            <Skeleton key={i} height={112} radius={14} />
          ))}
        </div>
      ) : targets.data && targets.data.length > 0 ? (
        <ul className="swap-list">
          {targets.data.map((x) => {
            const soldOut = x.quantity < selection.count;
            const diff = x.price - base.price;
            return (
              <li key={x.id}>
                <SwapCard
                  {...cardFields(x, p.assetsBaseUrl)}
                  note={
                    soldOut
                      ? t('swap.sold_out')
                      : diff > 0
                        ? t('swap.diff_more', { amount: formatMoney(diff, x.currencyCode) })
                        : diff < 0
                          ? t('swap.diff_less', { amount: formatMoney(-diff, x.currencyCode) })
                          : t('swap.diff_same')
                  }
                  actions={[
                    {
                      icon: SwapIcon,
                      label: t('swap.choose', { name: x.name }),
                      onClick: () => p.onChoose(x),
                      disabled: soldOut || p.starting.isPending,
                      busy: p.starting.isPending && p.starting.swapPairId === x.id,
                    },
                  ]}
                />
              </li>
            );
          })}
        </ul>
      ) : targets.data ? (
        <EmptyState message={t('swap.no_targets')} hint={t('feedback.swap_no_targets_hint')}>
          <Button variant="secondary" onClick={p.onReset}>
            {t('feedback.choose_another')}
          </Button>
        </EmptyState>
      ) : null}
      <Button variant="ghost" onClick={p.onReset}>
        {t('common.cancel')}
      </Button>
    </section>
  );
}
