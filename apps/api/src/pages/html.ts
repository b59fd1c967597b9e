/** What the server-rendered public pages share: escaping, and an organisation's brand on a page. */
import type { OrganisationBranding } from '@tp/contract';

/**
 * An organisation's initials, its mark where its logo does not load (issue 40 point 5): the first letters of the name's first two words ("Harbour Lights Festival" → "HL"), two letters of a one-word
 * name ("Acme" → "AC"), upper case; symbols skipped; empty for a name without letters or digits.
 */
export function orgInitials(name: string): string {
  const words = name
    .split(/\s+/)
    .map((w) => Array.from(w.replace(/[^\p{L}\p{N}]/gu, '')))
    .filter((w) => w.length > 0);
  if (words.length === 0) return '';
  const [first, second] = words;
  const letters = words.length > 1 ? [first[0], second[0]] : first.slice(0, 2);
  return letters.join('').toUpperCase();
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * An organisation's brand on a public page (issue 23): its name and logo in a header (a logo that fails to load
 * shows the organisation's initials, never a broken-image icon: issue 40 point 5), its colour on the primary
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
    `.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;margin:0 0 .75rem}.brand img{position:relative;flex:none;width:40px;height:40px;border-radius:8px;object-fit:contain}` +
    // A logo that does not load: its initials cover the browser's broken-image icon (the box of a broken image
    // renders its ::after; a loaded one does not). Pure CSS: these pages run no script (issue 40 point 5).
    `.brand img::after{content:attr(data-initials);position:absolute;inset:0;display:grid;place-items:center;border-radius:8px;font-size:15px;background:${light?.accent ?? '#1a56db'};color:${light?.accentText ?? '#fff'}}` +
    (dark
      ? `@media (prefers-color-scheme:dark){.brand img::after{background:${dark.accent};color:${dark.accentText}}}`
      : '');
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" data-initials="${escapeHtml(orgInitials(brand.name))}">`
    : '';
  return { css, header: `<header class="brand">${logo}<span>${escapeHtml(brand.name)}</span></header>` };
}
