/**
 * The phone part of the account tab: the current number (or none) and a button that opens a modal to add or
 * change it, showing the current and the new number. POST /auth/profile {phoneNumber}. The collision message
 * is 'Email or phone number already in use' (api.profile.email_or_phone_in_use). Save is disabled unless the
 * new number differs from the current one and is valid. Numbers show formatted (lib/phone, loaded on demand).
 */
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import type { User } from '@tp/contract';
import { errorKey } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { Modal } from '../../../ui/modal';
import { PhoneIcon } from '../../../ui/icons';
import { useSaveProfile } from '../../../lib/profile';
import { normalizePhone } from '@tp/contract/profile';
import { phoneSchema, type PhoneForm } from '../account-validation';
import { useFormattedPhone } from '../../../lib/phone';

function PhoneModal(props: { current: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const formId = useId();
  const current = useFormattedPhone(props.current);
  const { register, handleSubmit, formState, control, setError } = useForm<PhoneForm>({
    resolver: zodResolver(phoneSchema),
    mode: 'onTouched',
    defaultValues: { phoneNumber: '' },
  });
  const value = (useWatch({ control, name: 'phoneNumber' }) ?? '').trim();
  // The API stores numbers normalised: the same number spelled differently is not a change.
  const changed = value !== '' && normalizePhone(value) !== (props.current ?? '');
  // Validity from the watched value: formState.isValid is not recomputed on change before a field is touched.
  const valid = phoneSchema.safeParse({ phoneNumber: value }).success && !formState.errors.phoneNumber;
  const onSubmit = handleSubmit(async (v) => {
    try {
      await save.mutateAsync({ phoneNumber: v.phoneNumber.trim() });
      toast.success(t('account.phone_saved'));
      props.onClose();
    } catch (err) {
      const key = errorKey(err);
      if (key === 'api.profile.email_or_phone_in_use') setError('phoneNumber', { message: key }, { shouldFocus: true });
      toast.error(t(key));
    }
  });
  const e = formState.errors.phoneNumber;
  const showError = e && (formState.touchedFields.phoneNumber || e.message === 'api.profile.email_or_phone_in_use');
  return (
    <Modal
      title={props.current ? t('account.phone_change') : t('account.phone_add')}
      onClose={props.onClose}
      footer={
        <>
          <Button variant="secondary" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={!changed || !valid || save.isPending} loading={save.isPending}>
            {t('account.save_phone')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="stack">
        <div className="stack-sm">
          <span className="field__label">{t('account.phone_current')}</span>
          <span className="account-phone__current">{current ?? t('account.phone_none')}</span>
        </div>
        <Field
          label={t('account.phone_new')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={32}
          placeholder={t('account.phone_placeholder')}
          error={showError ? t(e.message!) : undefined}
          {...register('phoneNumber')}
        />
      </form>
    </Modal>
  );
}

export function AccountPhone(props: { user: User }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const current = useFormattedPhone(props.user.phoneNumber);
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account.phone_title')}
      </h2>
      <div className="row-between account-phone">
        <p className="icon-line account-phone__value">
          <PhoneIcon />
          <span>{current ?? <span className="muted">{t('account.phone_none')}</span>}</span>
        </p>
        <Button variant="secondary" className="btn--small" onClick={() => setOpen(true)}>
          {current ? t('account.phone_change') : t('account.phone_add')}
        </Button>
      </div>
      {open && <PhoneModal current={props.user.phoneNumber} onClose={() => setOpen(false)} />}
    </section>
  );
}
