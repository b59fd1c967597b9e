/** Resolves a server path (`/public/...`, `/media/...`) against the assets host. */
export function assetUrl(path: string | null | undefined, assetsBaseUrl = ''): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${assetsBaseUrl.replace(/\/$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * `onError` of a decorative logo `<img>` (the organisation's, beside its name: header, sign-in card; issue 40 point
 * 5): a logo that does not load (a 404, not an image) is hidden rather than showing the browser's broken-image icon,
 * and the name beside it stands alone, as for an organisation without a logo. React listens on the element before it
 * sets `src`, so an error served from the cache is caught too. Here, beside `assetUrl` which both callers import: no
 * new module on the sign-in screen's 120 KiB budget.
 */
export function hideBrokenImage(e: { currentTarget: HTMLImageElement }): void {
  e.currentTarget.hidden = true;
}
