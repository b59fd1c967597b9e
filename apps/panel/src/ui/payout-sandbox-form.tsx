/**
 * The sandbox payout onboarding (used when Stripe is not configured): collects what Stripe would (country AU/NZ,
 * first and last name, date of birth, bank account) and hands it to `onSubmit`, which verifies the account (a holder's
 * POST /v1/resell/sandbox-onboarding on the panel's payout tab, an organisation's POST
 * /v1/org/payout-account/sandbox-onboarding in the console, issue 45). Save is disabled until the form is changed
 * and valid, and while it is sent. Texts `payout.*`, `validation.*` of the catalogue in use (the panel's or the
 * console's); what the caller shows of an error it places in `children`, above the button.
 */
import { useId, useMemo, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { payoutFormSchema, type PayoutForm } from '../lib/payout-form.validation';
import { Button } from './button';
import { Field, touchedError } from './field';
import { FieldPair } from './field-pair';
import { PayoutCountryField } from './payout-country-field';
import './payout.css';

/** The form's answer, trimmed: what both sandbox-onboarding routes take. */
export type SandboxOnboardingValues = PayoutForm;

export function PayoutSandboxForm(props: {
  /** Verifies the account with the values; a rejection leaves the form as it was (the caller says why). */
  onSubmit: (values: SandboxOnboardingValues) => Promise<void>;
  /** The names the form starts with (a holder's own); empty when absent. */
  firstName?: string;
  lastName?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const schema = useMemo(() => payoutFormSchema(), []);
  const { register, handleSubmit, formState, control } = useForm<PayoutForm>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    values: {
      country: 'AU',
      firstName: props.firstName ?? '',
      lastName: props.lastName ?? '',
      birthdate: '',
      bankAccount: '',
    },
    resetOptions: { keepDirtyValues: true },
  });
  const { isValid, isSubmitting } = formState;
  const country = useWatch({ control, name: 'country' });
  const err = (k: keyof PayoutForm) => touchedError(t, formState, k);

  const onSubmit = handleSubmit((v) =>
    props
      .onSubmit({
        country: v.country,
        firstName: v.firstName.trim(),
        lastName: v.lastName.trim(),
        birthdate: v.birthdate,
        bankAccount: v.bankAccount.trim(),
      })
      .catch(() => undefined),
  );

  return (
    <form className="stack payout-form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-t`}>
      <div className="stack-sm">
        <h2 id={`${id}-t`} className="section-title">
          {t('payout.form_title')}
        </h2>
        <p className="muted small">{t('payout.form_text')}</p>
        <p className="payout-sandbox-note small">{t('payout.sandbox_note')}</p>
      </div>
      <PayoutCountryField id={`${id}-country`} {...register('country')} />
      <FieldPair>
        <Field
          label={t('payout.first_name')}
          autoComplete="given-name"
          error={err('firstName')}
          {...register('firstName')}
        />
        <Field
          label={t('payout.last_name')}
          autoComplete="family-name"
          error={err('lastName')}
          {...register('lastName')}
        />
      </FieldPair>
      <Field
        label={t('payout.birthdate')}
        type="date"
        autoComplete="bday"
        max={new Date().toISOString().slice(0, 10)}
        error={err('birthdate')}
        {...register('birthdate')}
      />
      <Field
        label={t('payout.bank_account')}
        inputMode="numeric"
        autoComplete="off"
        placeholder={t(`payout.bank_placeholder_${country}`)}
        helper={t(`payout.bank_helper_${country}`)}
        error={err('bankAccount')}
        {...register('bankAccount')}
      />
      {props.children}
      <Button type="submit" disabled={!isValid || isSubmitting} loading={isSubmitting}>
        {t('payout.verify')}
      </Button>
    </form>
  );
}
