import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { Button } from '../../../ui/button';
import { Modal } from '../../../ui/modal';
import type { SwapTicket } from '../api/swappable-tickets.api';
import type { SwapPending } from '../hooks/use-swap-checkout';
import type { SwapSelection } from '../hooks/use-swap-selection';

/**
 * Step 3: the confirmation modal with the disclaimer (a DOWNGRADE loses `difference`, an UPGRADE pays it at
 * checkout; cents of `currency`). Cancel releases the started swap; confirm leaves for the checkout.
 */
export function SwapConfirmStep(p: {
  base: SwapTicket;
  selection: SwapSelection;
  pending: SwapPending;
  difference: number;
  currency: string;
  leaving: boolean;
  canConfirm: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const { base, selection, pending } = p;
  return (
    <Modal
      title={t('swap.confirm_title')}
      onClose={p.onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={p.onCancel} disabled={p.leaving}>
            {t('common.cancel')}
          </Button>
          <Button onClick={p.onConfirm} loading={p.leaving} disabled={!p.canConfirm}>
            {pending.result.swapType === 'UPGRADE' ? t('swap.to_checkout') : t('swap.confirm')}
          </Button>
        </>
      }
    >
      <div className="stack">
        <dl className="swap-summary">
          <dt>{t('swap.from')}</dt>
          <dd>
            {selection.count} × {base.name}
            {base.eventName ? ` · ${base.eventName}` : ''}
          </dd>
          <dt>{t('swap.to')}</dt>
          <dd>
            {selection.count} × {pending.target.name}
          </dd>
        </dl>
        <p className="note" role="note">
          {pending.result.swapType === 'UPGRADE'
            ? t('swap.disclaimer_upgrade', { amount: formatMoney(p.difference, p.currency) })
            : t('swap.disclaimer_downgrade', { amount: formatMoney(p.difference, p.currency) })}
        </p>
        <p className="muted small">{t('swap.disclaimer_final')}</p>
      </div>
    </Modal>
  );
}
