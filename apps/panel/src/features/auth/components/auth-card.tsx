import type { ReactNode } from 'react';
import { usePanelConfig } from '../../../lib/queries';
import { OrgLogo } from '../../../ui/org-logo';
import { useTheme } from '../../../lib/theme';

/**
 * The sign-in card (spec 2 Layout: at most 380 px wide). A branded panel shows its organisation on it in the
 * dark theme, where the card stands alone (the light theme's header already shows it).
 */
export const AuthCard = (p: { title: string; subtitle?: ReactNode; children: ReactNode }) => {
  const config = usePanelConfig();
  const org = useTheme().theme === 'dark' ? config?.organisation : undefined;
  return (
    <section className="auth-card" aria-labelledby="auth-title">
      {org && (
        <p className="auth-card__brand">
          <OrgLogo size={40} />
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
