/**
 * The payout account's country (spec section 7: AU or NZ), labelled, with its helper line: the one select of
 * both onboardings, Stripe's (a controlled value) and the sandbox form (react-hook-form's `register`), for a holder
 * (the panel's payout tab) and an organisation (the console's exchange page, issue 45). Texts `payout.*` of the
 * catalogue in use (the panel's or the console's).
 */
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYOUT_COUNTRIES } from '../lib/payout-form.validation';

/** `id`: the select's id (its label points at it); the other props go to the `<select>` (value or register). */
export function PayoutCountryField(props: ComponentProps<'select'> & { id: string }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <div className="field__label-row">
        <label htmlFor={props.id} className="field__label">
          {t('payout.country')}
        </label>
      </div>
      <select className="field__input payout-select" {...props}>
        {PAYOUT_COUNTRIES.map((c) => (
          <option key={c} value={c}>
            {t(`payout.country_${c}`)}
          </option>
        ))}
      </select>
      <p className="field__helper">{t('payout.country_helper')}</p>
    </div>
  );
}
