/** Resolves a server path (`/public/...`, `/media/...`) against the assets host. */
export function assetUrl(path: string | null | undefined, assetsBaseUrl = ''): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${assetsBaseUrl.replace(/\/$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}
