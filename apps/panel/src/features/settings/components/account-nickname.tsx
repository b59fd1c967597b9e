/**
 * The nickname part of the account tab: POST /auth/username. The #suffix is shown and never changes.
 * "Username cannot be empty" when blank; the taken message (api.profile.username_taken) on a collision.
 * Save is disabled unless the trimmed nickname changed and is valid.
 */
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import type { User } from '@tp/contract';
import { errorKey } from '../../../lib/api-client';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { updateUsername, useUpdateUsername } from '../api/profile-username.api';
import { nicknameSchema, type NicknameForm } from '../account-validation';
import { NICKNAME_MAX_LENGTH } from '@tp/contract/profile';

export function AccountNickname(props: { user: User }) {
  const { t } = useTranslation();
  const id = useId();
  const save = useUpdateUsername();
  const { register, handleSubmit, formState, control, setError } = useForm<NicknameForm>({
    resolver: zodResolver(nicknameSchema),
    mode: 'onTouched',
    defaultValues: { nickname: props.user.nickname },
  });
  const value = useWatch({ control, name: 'nickname' }) ?? '';
  const changed = value.trim() !== props.user.nickname;
  const valid =
    nicknameSchema.safeParse({ nickname: value }).success &&
    formState.errors.nickname?.message !== 'api.profile.username_taken';
  const onSubmit = handleSubmit(async (v) => {
    try {
      await save.mutateAsync(v.nickname.trim());
      toast.success(t('account.nickname_saved'));
    } catch (err) {
      const key = errorKey(err);
      if (key === 'api.profile.username_taken') setError('nickname', { message: key }, { shouldFocus: true });
      toast.error(t(key), { action: updateUsername });
    }
  });
  const e = formState.errors.nickname;
  const touched = formState.touchedFields.nickname || e?.message === 'api.profile.username_taken';
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account.nickname_title')}
      </h2>
      <form onSubmit={onSubmit} noValidate className="stack">
        <Field
          label={t('account.nickname')}
          autoComplete="nickname"
          maxLength={NICKNAME_MAX_LENGTH}
          error={e && touched ? t(e.message!) : undefined}
          helper={t('account.nickname_help', { suffix: props.user.uniqueID })}
          {...register('nickname')}
        />
        <div className="account-actions">
          <Button type="submit" disabled={!changed || !valid || save.isPending} loading={save.isPending}>
            {t('account.save_nickname')}
          </Button>
        </div>
      </form>
    </section>
  );
}
