/** What the server-rendered public pages share: escaping, and an organisation's brand on a page. */
import type { OrganisationBranding } from '@tp/contract';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * An organisation's brand on a public page (issue 23): its name and logo in a header, its colour on the primary
 * buttons (`primary`, a CSS selector) in both themes (the palettes of `GET /v1/organisations/{slug}`, at 4.5:1).
 * Null or absent: nothing (the product's look).
 */
export function pageBrand(
  brand: OrganisationBranding | null | undefined,
  primary = 'button,a.btn',
): { css: string; header: string } {
  if (!brand) return { css: '', header: '' };
  const { light, dark } = brand.theme ?? { light: null, dark: null };
  const css =
    (light ? `${primary}{background:${light.accent};color:${light.accentText}}` : '') +
    (dark ? `@media (prefers-color-scheme:dark){${primary}{background:${dark.accent};color:${dark.accentText}}}` : '') +
    `.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;margin:0 0 .75rem}.brand img{width:40px;height:40px;border-radius:8px;object-fit:contain}`;
  const logo = brand.logoUrl ? `<img src="${escapeHtml(brand.logoUrl)}" alt="">` : '';
  return { css, header: `<header class="brand">${logo}<span>${escapeHtml(brand.name)}</span></header>` };
}
