/**
 * Branding (issue 21, owners): the organisation's name, logo, colour and links (PATCH /v1/org/organisation), with
 * a preview of the holder panel's accent in both themes as the panel shows it: the contrast-adjusted colours the
 * branding answer carries (GET /v1/organisations/{slug}, `theme`), asked of the server past the browser's cache.
 */
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganisationBranding, organisations } from '@tp/contract';
import type * as z from 'zod';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { fresh, org } from './api';
import { consoleKeys } from './console-query-keys';
import { QueryState } from './query-state';
import { useServerErrors } from './server-errors';

type Organisation = z.infer<typeof organisations.organisationItem>;
type Fields = {
  name: string;
  logoUrl: string;
  primaryColor: string;
  websiteUrl: string;
  helpCenterUrl: string;
  appUrl: string;
};
const LINKS = ['logoUrl', 'websiteUrl', 'helpCenterUrl', 'appUrl'] as const;

/**
 * The branding screen: the form appears once the organisation is loaded, filled with it, so nothing typed is
 * overwritten by a late answer; the preview follows the saved brand.
 */
export function BrandingScreen({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const current = useQuery({
    queryKey: consoleKeys.organisation,
    queryFn: (): Promise<Organisation> => org.GET('/v1/org/organisation'),
  });
  const panel = useQuery({
    queryKey: consoleKeys.branding(slug),
    // The public answer is cached by browsers for a minute (`Cache-Control: public, max-age=60`), which keeps
    // embedded panels fast; the preview asks the server every time (`no-cache`), so a saved brand shows here at
    // once and after a reload (issue 41, point 7). The fresh answer also replaces the browser's stored copy, so
    // this browser's holder panel shows it at once too.
    queryFn: (): Promise<OrganisationBranding> => fresh.GET('/v1/organisations/{slug}', { params: { path: { slug } } }),
  });
  const brand = panel.data;
  return (
    <section className="stack">
      <h1>{t('console.branding.title')}</h1>
      <QueryState query={current} loading={t('console.branding.loading')} />
      {current.data && <BrandingForm slug={slug} organisation={current.data} />}
      <h2>{t('console.branding.preview')}</h2>
      <div className="grid">
        {(['light', 'dark'] as const).map((mode) => {
          const palette = brand?.theme?.[mode];
          return (
            <div key={mode} className={`preview preview--${mode} stack`} data-testid={`preview-${mode}`}>
              <span>{t(`console.branding.${mode}`)}</span>
              <strong>
                {brand?.logoUrl && <img className="preview__logo" src={brand.logoUrl} alt="" />} {brand?.name}
              </strong>
              <span
                className="preview__button"
                style={palette ? { background: palette.accent, color: palette.accentText } : undefined}
              >
                {t('console.branding.sample_button')}
              </span>
              {palette && <code>{palette.accent}</code>}
            </div>
          );
        })}
      </div>
    </section>
  );
}

function BrandingForm({ slug, organisation: o }: { slug: string; organisation: Organisation }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<Fields>({
    defaultValues: {
      name: o.name,
      primaryColor: o.primaryColor ?? '',
      ...Object.fromEntries(LINKS.map((k) => [k, o[k] ?? ''])),
    },
  });
  const { formError, setFormError, show } = useServerErrors(form);
  const save = useMutation({
    onMutate: () => setFormError(null),
    mutationFn: (v: Fields) =>
      org.PATCH('/v1/org/organisation', {
        body: {
          name: v.name,
          primaryColor: v.primaryColor || null,
          ...Object.fromEntries(LINKS.map((k) => [k, v[k].trim() || null])),
        },
      }),
    onSuccess: async (o) => {
      client.setQueryData(consoleKeys.organisation, o);
      await client.invalidateQueries({ queryKey: consoleKeys.branding(slug) });
    },
    onError: show,
  });
  const err = (name: keyof Fields) => form.formState.errors[name]?.message;
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
      </div>
      {formError && (
        <p className="error" role="alert">
          {formError}
        </p>
      )}
      {save.isSuccess && <p role="status">{t('console.branding.saved')}</p>}
      <Button type="submit" loading={save.isPending}>
        {t('console.save')}
      </Button>
    </form>
  );
}
