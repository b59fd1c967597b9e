import type { ReactNode } from 'react';
import { usePanelConfig } from '../../../lib/queries';
import { assetUrl } from '../../../lib/asset-url';

/** The sign-in card (spec 2 Layout: at most 380 px wide); a branded panel shows its organisation on it. */
export const AuthCard = (p: { title: string; subtitle?: ReactNode; children: ReactNode }) => {
  const config = usePanelConfig();
  const org = config?.organisation;
  return (
    <section className="auth-card" aria-labelledby="auth-title">
      {org && (
        <p className="auth-card__brand">
          {config.orgLogo && <img src={assetUrl(config.orgLogo, config.assetsBaseUrl)} alt="" width={40} height={40} />}
          <span>{org.name}</span>
        </p>
      )}
      <h1 id="auth-title" className="auth-card__title">
        {p.title}
      </h1>
      {p.subtitle && <p className="auth-card__subtitle">{p.subtitle}</p>}
      {p.children}
    </section>
  );
};
