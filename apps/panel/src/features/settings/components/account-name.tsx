/**
 * The personal-data part of the account tab: first and last name, POST /auth/profile. Messages of spec
 * section 5 ('First name is required', 'First name cannot be empty', ...). Save is disabled unless a
 * trimmed name changed and both are valid.
 */
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import type { User } from '@tp/contract';
import { errorKey } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Field, touchedError } from '../../../ui/field';
import { FieldPair } from '../../../ui/field-pair';
import { useSaveProfile } from '../../../lib/profile';
import { nameSchema, type NameForm } from '../account-validation';
import { NAME_MAX_LENGTH } from '@tp/contract/profile';

export function AccountName(props: { user: User }) {
  const { t } = useTranslation();
  const id = useId();
  const save = useSaveProfile();
  const given = props.user.givenName ?? '';
  const family = props.user.familyName ?? '';
  const { register, handleSubmit, formState, control } = useForm<NameForm>({
    resolver: zodResolver(nameSchema),
    mode: 'onTouched',
    defaultValues: { givenName: given, familyName: family },
  });
  const [g, f] = useWatch({ control, name: ['givenName', 'familyName'] });
  const changed = (g ?? '').trim() !== given || (f ?? '').trim() !== family;
  const valid = nameSchema.safeParse({ givenName: g ?? '', familyName: f ?? '' }).success;
  const onSubmit = handleSubmit(async (v) => {
    const patch: { givenName?: string; familyName?: string } = {};
    if (v.givenName.trim() !== given) patch.givenName = v.givenName.trim();
    if (v.familyName.trim() !== family) patch.familyName = v.familyName.trim();
    try {
      await save.mutateAsync(patch);
      toast.success(t('account.name_saved'));
    } catch (err) {
      toast.error(t(errorKey(err)));
    }
  });
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account.name_title')}
      </h2>
      <form onSubmit={onSubmit} noValidate className="stack">
        <FieldPair>
          <Field
            label={t('personal.first_name')}
            autoComplete="given-name"
            maxLength={NAME_MAX_LENGTH}
            error={touchedError(t, formState, 'givenName')}
            {...register('givenName')}
          />
          <Field
            label={t('personal.last_name')}
            autoComplete="family-name"
            maxLength={NAME_MAX_LENGTH}
            error={touchedError(t, formState, 'familyName')}
            {...register('familyName')}
          />
        </FieldPair>
        <div className="account-actions">
          <Button type="submit" disabled={!changed || !valid || save.isPending} loading={save.isPending}>
            {t('account.save_name')}
          </Button>
        </div>
      </form>
    </section>
  );
}
