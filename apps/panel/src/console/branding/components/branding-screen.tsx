/**
 * Branding (issue 21, owners): the organisation's name, logo, colour and links (branding-form.tsx), with a preview
 * of the holder panel's accent in both themes as the panel shows it: the contrast-adjusted colours the branding
 * answer carries (panel-branding.api.ts), asked of the server past the browser's cache.
 */
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../query-state';
import { useOrganisation } from '../api/organisation.api';
import { usePanelBranding } from '../api/panel-branding.api';
import { BrandingForm } from './branding-form';

/**
 * The branding screen: the form appears once the organisation is loaded, filled with it, so nothing typed is
 * overwritten by a late answer; the preview follows the saved brand.
 */
export function BrandingScreen({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const current = useOrganisation();
  const brand = usePanelBranding(slug).data;
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
