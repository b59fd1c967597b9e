import type { ReactNode } from 'react';

/** The sign-in card (spec 2 Layout: at most 380 px wide). */
export const AuthCard = (p: { title: string; subtitle?: ReactNode; children: ReactNode }) => (
  <section className="auth-card" aria-labelledby="auth-title">
    <h1 id="auth-title" className="auth-card__title">
      {p.title}
    </h1>
    {p.subtitle && <p className="auth-card__subtitle">{p.subtitle}</p>}
    {p.children}
  </section>
);
