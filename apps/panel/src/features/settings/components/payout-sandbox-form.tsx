/**
 * The sandbox payout onboarding (used when Stripe is not configured): collects what Stripe would
 * (country AU/NZ, first and last name, date of birth, bank account) and verifies the account with
 * POST /v1/resell/sandbox-onboarding, so the whole resale flow works offline. Save is disabled until
 * the form is changed and valid, and while it is sent.
 */
import { useId, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { useUser } from '../../../lib/queries';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { submitSandboxOnboarding, useSandboxOnboarding } from '../api/payout-account.api';
import { payoutFormSchema, type PayoutForm } from '../payout-form.validation';
import { PayoutCountryField } from './payout-country-field';

export function PayoutSandboxForm() {
  const { t } = useTranslation();
  const id = useId();
  const user = useUser().data;
  const schema = useMemo(() => payoutFormSchema(), []);
  const submit = useSandboxOnboarding();
  const { register, handleSubmit, formState, control } = useForm<PayoutForm>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    values: {
      country: 'AU',
      firstName: user?.givenName ?? '',
      lastName: user?.familyName ?? '',
      birthdate: '',
      bankAccount: '',
    },
    resetOptions: { keepDirtyValues: true },
  });
  const { isValid, isSubmitting, errors, touchedFields } = formState;
  const country = useWatch({ control, name: 'country' });
  const err = (k: keyof PayoutForm) => (errors[k] && touchedFields[k] ? t(errors[k].message!) : undefined);

  const onSubmit = handleSubmit(async (v) => {
    try {
      await submit.mutateAsync({
        country: v.country,
        firstName: v.firstName.trim(),
        lastName: v.lastName.trim(),
        birthdate: v.birthdate,
        bankAccount: v.bankAccount.trim(),
      });
      toast.success(t('payout.verified_toast'));
    } catch (e) {
      toast.error(t(errorKey(e)), { action: submitSandboxOnboarding });
    }
  });

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
      <div className="payout-grid">
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
      </div>
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
      <Button type="submit" disabled={!isValid || isSubmitting} loading={isSubmitting}>
        {t('payout.verify')}
      </Button>
    </form>
  );
}
