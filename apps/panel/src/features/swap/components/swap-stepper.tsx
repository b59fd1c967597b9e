import { useTranslation } from 'react-i18next';
import type { SwapTicket } from '../api/swappable-tickets.api';

/** The base ticket's count stepper: minus at 1 deselects, plus stops at the quantity held. */
export function SwapStepper(p: { ticket: SwapTicket; count: number; onChange: (n: number) => void }) {
  const { t } = useTranslation();
  const label = `${p.ticket.name}${p.ticket.eventName ? `, ${p.ticket.eventName}` : ''}`;
  return (
    <div className="swap-stepper">
      <span className="muted small">{t('swap.you_hold', { count: p.ticket.quantity })}</span>
      <div className="swap-stepper__controls" role="group" aria-label={t('swap.count_label', { name: label })}>
        <button
          type="button"
          className="icon-btn step-button swap-stepper__btn"
          aria-label={t('swap.decrease', { name: label })}
          disabled={p.count <= 0}
          onClick={() => p.onChange(p.count - 1)}
        >
          −
        </button>
        <output className="swap-stepper__value" aria-live="polite" aria-label={t('swap.count_label', { name: label })}>
          {p.count}
        </output>
        <button
          type="button"
          className="icon-btn step-button swap-stepper__btn"
          aria-label={t('swap.increase', { name: label })}
          disabled={p.count >= p.ticket.quantity}
          onClick={() => p.onChange(p.count + 1)}
        >
          +
        </button>
      </div>
    </div>
  );
}
