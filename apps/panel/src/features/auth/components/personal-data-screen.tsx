/**
 * PERSONAL_DATA (spec section 2): first and last name after account creation, then the screen the holder's link
 * asked for, else the QR pass with no hub over it (issue 40 points 1 and 2, decision 019).
 */
import { useForm } from 'react-hook-form';
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { navigate } from '../../../lib/use-route';
import { routeAfterSignIn } from '../../../lib/return-route';
import { Button } from '../../../ui/button';
import { Field, touchedError } from '../../../ui/field';
import { useSaveProfile } from '../../../lib/profile';
import { personalDataSchema, type PersonalDataForm } from '../validation';
import { AuthCard } from './auth-card';

export default function PersonalDataScreen() {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const { register, handleSubmit, formState } = useForm<PersonalDataForm>({
    resolver: standardSchemaResolver(personalDataSchema),
    mode: 'onTouched',
    defaultValues: { givenName: '', familyName: '' },
  });
  const onSubmit = handleSubmit(async (v) => {
    try {
      await save.mutateAsync({ givenName: v.givenName.trim(), familyName: v.familyName.trim() });
      navigate(routeAfterSignIn(), { replace: true });
    } catch (err) {
      toast.error(t(failureKey(err)), { action: useSaveProfile });
    }
  });
  // Destructured so react-hook-form subscribes to both from the first render (a short-circuited read
  // subscribes late and leaves isDirty stale, keeping Continue disabled).
  const { isValid, isDirty } = formState;
  return (
    <AuthCard title={t('personal.title')} subtitle={t('personal.subtitle')}>
      <form onSubmit={onSubmit} noValidate className="stack">
        <Field
          label={t('personal.first_name')}
          autoComplete="given-name"
          error={touchedError(t, formState, 'givenName')}
          {...register('givenName')}
        />
        <Field
          label={t('personal.last_name')}
          autoComplete="family-name"
          error={touchedError(t, formState, 'familyName')}
          {...register('familyName')}
        />
        <Button type="submit" disabled={!isValid || !isDirty || save.isPending} loading={save.isPending}>
          {t('common.continue')}
        </Button>
      </form>
    </AuthCard>
  );
}
