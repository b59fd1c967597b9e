/**
 * The resale form's pricing summary (spec sections 2 Resell, 4 Resell flow): price x quantity, service fee and
 * total as the API calculated them, an ellipsis while the summary of a valid price loads (the region is aria-busy),
 * a line waiting for a price while there is none (issue 23), and the calculation's error.
 */
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import type { CalculationInput } from '../api/resell-calculation.api';

/** The summary's figures, major units of `currency`. */
interface Summary {
  basePrice: number;
  serviceFee: number;
  totalPrice: number;
}

/**
 * The summary region; `input` is the price asked about (null: no valid price yet), `summary` its answer once
 * loaded, `error` the calculation's failure (null when none), `capText` the formatted price cap.
 */
export function ResellSummary({
  id,
  input,
  quantity,
  summary,
  loading,
  error,
  currency,
  capText,
}: {
  id: string;
  input: CalculationInput | null;
  quantity: number;
  summary: Summary | undefined;
  loading: boolean;
  error: unknown;
  currency: string;
  capText: string;
}) {
  const { t } = useTranslation();
  // While the summary of a valid price loads, an ellipsis (the region is aria-busy meanwhile).
  const money = (v: number | undefined) => (v === undefined ? '…' : formatMoney(v, currency));
  return (
    <section className="resell-summary" aria-labelledby={`${id}-sum`} aria-busy={loading || undefined}>
      <h2 id={`${id}-sum`} className="section-title">
        {t('resell.summary')}
      </h2>
      {input ? (
        <dl>
          <div>
            <dt>{t('resell.summary_price', { count: quantity, price: formatMoney(input.selectedPrice, currency) })}</dt>
            <dd>{money(summary?.basePrice)}</dd>
          </div>
          <div>
            <dt>{t('resell.service_fee')}</dt>
            <dd>{money(summary?.serviceFee)}</dd>
          </div>
          <div className="resell-summary__total">
            <dt>{t('resell.total')}</dt>
            <dd>{money(summary?.totalPrice)}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted small">{t('resell.summary_waiting', { max: capText })}</p>
      )}
      {error !== null && input ? (
        <p className="field__error" role="alert">
          {t(errorKey(error))}
        </p>
      ) : (
        <p className="muted small">{t('resell.summary_note')}</p>
      )}
    </section>
  );
}
