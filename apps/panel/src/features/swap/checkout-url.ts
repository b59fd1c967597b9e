/**
 * The swap checkout address of spec section 7:
 * `${checkoutBaseUrl}/${locale}/${slug(name)}-${eventId}/${orderIdentifier}?redirectDomain=${current page}&origin=ticket_swap`.
 * The API's sandbox checkout (`/checkout/:locale/:slug/:orderIdentifier`) reads `redirectDomain` and `origin`.
 */

/** A URL slug: lower case ASCII letters and digits joined by single dashes ("Río Nights!" -> "rio-nights"). */
export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'event'
  );
}

export function checkoutUrl(p: {
  checkoutBaseUrl: string;
  locale: string;
  name: string;
  eventId: number;
  orderIdentifier: string;
  redirectDomain: string;
}): string {
  const base = p.checkoutBaseUrl.replace(/\/+$/, '');
  const query = `redirectDomain=${encodeURIComponent(p.redirectDomain)}&origin=ticket_swap`;
  return `${base}/${encodeURIComponent(p.locale)}/${slugify(p.name)}-${p.eventId}/${encodeURIComponent(p.orderIdentifier)}?${query}`;
}
