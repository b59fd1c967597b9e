/**
 * The branding form, filled with the organisation: its name, colour, links and reschedule threshold (issue 46); saved by PATCH
 * /v1/org/organisation (save-branding.api.ts), "Saved" once it is. The API's field errors show at their fields.
 */
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { organisations } from '@tp/contract';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { ErrorBlock, useServerErrors } from '../../server-errors';
import type { Organisation } from '../api/organisation.api';
import { LINKS, useSaveBranding, type BrandingFields } from '../api/save-branding.api';

export function BrandingForm({ slug, organisation: o }: { slug: string; organisation: Organisation }) {
  const { t } = useTranslation();
  const form = useForm<BrandingFields>({
    defaultValues: {
      name: o.name,
      primaryColor: o.primaryColor ?? '',
      ...Object.fromEntries(LINKS.map((k) => [k, o[k] ?? ''])),
      rescheduleThresholdMinutes: String(o.rescheduleThresholdMinutes),
    },
  });
  const { formError, setFormError, show } = useServerErrors(form);
  const save = useSaveBranding(slug, { onMutate: () => setFormError(null), onError: show });
  const err = (name: keyof BrandingFields) => form.formState.errors[name]?.message;
  return (
    <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)} noValidate>
      <div className="grid">
        <Field
          label={t('console.branding.name')}
          error={err('name')}
          {...form.register('name', { required: t('console.required') })}
        />
        <Field
          label={t('console.branding.colour')}
          placeholder="#7c3aed"
          error={err('primaryColor')}
          {...form.register('primaryColor')}
        />
        {LINKS.map((k) => (
          <Field
            key={k}
            label={t(`console.branding.${k}`)}
            type="url"
            placeholder="https://"
            error={err(k)}
            {...form.register(k)}
          />
        ))}
        <Field
          label={t('console.branding.reschedule_threshold')}
          inputMode="numeric"
          helper={t('console.branding.reschedule_threshold_help')}
          error={err('rescheduleThresholdMinutes')}
          {...form.register('rescheduleThresholdMinutes', {
            validate: (v) =>
              (/^\d+$/.test(v.trim()) && Number(v) <= organisations.RESCHEDULE_THRESHOLD_MAX_MINUTES) ||
              t('console.branding.reschedule_threshold_invalid'),
          })}
        />
      </div>
      <ErrorBlock message={formError} />
      {save.isSuccess && <p role="status">{t('console.branding.saved')}</p>}
      <FormFooter bare submit={t('console.save')} pending={save.isPending} />
    </form>
  );
}
