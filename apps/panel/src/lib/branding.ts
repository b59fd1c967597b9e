/**
 * The panel per organiser (issue 12): loaded only when the panel is shown for an organisation (`?org=`, which
 * the loader sets from `data-org`), so the default panel's first screen carries none of it. Fetches the
 * organisation's branding (GET /v1/organisations/{slug}), lays it over the panel configuration (name, logo,
 * web site, help centre and app links; null fields keep the defaults) and themes the panel with its colour:
 * the API sends the accent colours of both themes already made WCAG AA-safe (`theme`), so no colour code
 * loads here.
 */
import type { OrganisationBranding, PanelConfig } from '@tp/contract';
import type { AccentPalette } from '@tp/contract/branding';
import { client } from './api-client';

/** The panel configuration with the organisation it is shown for, when there is one. */
export type BrandedConfig = PanelConfig & { organisation?: OrganisationBranding };

/** The organisation's branding laid over the configuration. */
export function withBranding(config: PanelConfig, org: OrganisationBranding): BrandedConfig {
  return {
    ...config,
    orgName: org.name,
    orgLogo: org.logoUrl ?? config.orgLogo,
    orgWebsite: org.websiteUrl,
    helpCenterUrl: org.helpCenterUrl ?? config.helpCenterUrl,
    appUrl: org.appUrl ?? config.appUrl,
    organisation: org,
  };
}

/** Rules only a branded panel needs: its colours and the organisation on the sign-in card. */
const CARD_RULES =
  '.auth-card__brand{display:flex;align-items:center;gap:10px;margin:0 0 16px;font-weight:700}' +
  '.auth-card__brand img{border-radius:10px;object-fit:contain}';

/** The rule that sets one theme's accent custom properties (styles.css names). */
const accentRule = (selector: string, p: AccentPalette) =>
  `${selector}{--accent:${p.accent};--accent-text:${p.accentText};--accent-soft:${p.accentSoft};--focus:${p.focus}}`;

/** Puts (or replaces) the organisation's style sheet after the panel's own, so its accents win. */
export function applyBrandStyles(org: OrganisationBranding, doc: Document = document): void {
  let el = doc.getElementById('tp-brand') as HTMLStyleElement | null;
  if (!el) {
    el = doc.createElement('style');
    el.id = 'tp-brand';
    doc.head.append(el);
  }
  const { theme } = org;
  el.textContent =
    (theme ? accentRule(':root', theme.light) + accentRule(":root[data-theme='dark']", theme.dark) : '') + CARD_RULES;
}

/**
 * The configuration for the organisation `slug`, themed. An unknown organisation keeps the defaults (the API
 * then answers `api.organisation.not_found` to the holder's calls, which the panel shows).
 */
export async function loadBrandedConfig(config: Promise<PanelConfig>, slug: string): Promise<BrandedConfig> {
  const [base, org] = await Promise.all([
    config,
    client
      .GET('/v1/organisations/{slug}', { params: { path: { slug } } })
      .then((b): OrganisationBranding => b)
      .catch(() => null),
  ]);
  if (!org) return base;
  applyBrandStyles(org);
  return withBranding(base, org);
}
