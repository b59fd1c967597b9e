/**
 * The resale form's quantity (spec sections 4 Resell flow, 5): a stepper whose - and + are disabled at 1 and at the
 * tickets available, with the count available as its helper; read-only once the form is locked.
 */
import { useTranslation } from 'react-i18next';

/** The quantity stepper; `id` prefixes its label's id, `onChange` gets the wanted count (the form clamps it). */
export function QuantityStepper({
  id,
  quantity,
  max,
  locked,
  onChange,
}: {
  id: string;
  quantity: number;
  max: number;
  locked: boolean;
  onChange: (n: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span id={`${id}-qty`} className="field__label">
        {t('resell.quantity')}
      </span>
      <div className="resell-stepper" role="group" aria-labelledby={`${id}-qty`}>
        <button
          type="button"
          className="icon-btn step-button"
          aria-label={t('resell.decrease')}
          disabled={locked || quantity <= 1}
          onClick={() => onChange(quantity - 1)}
        >
          −
        </button>
        <input
          className="field__input resell-stepper__value"
          aria-labelledby={`${id}-qty`}
          inputMode="numeric"
          value={quantity}
          readOnly={locked}
          onChange={(ev) => onChange(Number.parseInt(ev.target.value.replace(/\D/g, '') || '1', 10))}
        />
        <button
          type="button"
          className="icon-btn step-button"
          aria-label={t('resell.increase')}
          disabled={locked || quantity >= max}
          onClick={() => onChange(quantity + 1)}
        >
          +
        </button>
      </div>
      <p className="field__helper">{t('resell.available_count', { count: max })}</p>
    </div>
  );
}
