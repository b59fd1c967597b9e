/**
 * Whether a page's origin is one EMBED_ORIGINS lets frame the panel (config `embedOrigins`: CSP `frame-ancestors`
 * sources, decision 012): `'self'` (the panel's own origin), an exact origin, `https://*.example.com` (any subdomain),
 * or `http://localhost:*` (any port). The browser enforces the list on the frame; this reads it again where the server
 * must know the top page (a passkey used in the embedded panel names it, issue 47).
 */
export function isEmbedOrigin(origin: string, sources: readonly string[], selfOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  return sources.some((source) => {
    if (source === "'self'") return origin === selfOrigin;
    const m = /^(https?:)\/\/(\*\.)?([^:/]+)(?::(\d+|\*))?$/i.exec(source);
    if (!m || m[1].toLowerCase() !== url.protocol) return false;
    const [, , wildcard, host, port] = m;
    const hostOk = wildcard ? url.hostname.endsWith(`.${host.toLowerCase()}`) : url.hostname === host.toLowerCase();
    const portOk = port === '*' || (port ?? '') === url.port;
    return hostOk && portOk;
  });
}
