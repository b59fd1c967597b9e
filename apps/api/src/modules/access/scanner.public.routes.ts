/**
 * The public door-scanner page: GET /scanner (`?lang=es` for Spanish). The page holds no secret; it
 * asks door staff for the scanner key and calls /v1/access/* with it (see check-in.service.ts).
 * Served with a strict CSP (its one inline script and style carry a per-request nonce; fetches only
 * to this origin), no framing, no referrer, camera allowed for this origin only.
 */
import { randomBytes } from 'node:crypto';
import type { App } from '../../lib/http.js';
import { renderScannerPage } from '../../pages/scanner.page.js';

export function scannerPageRoutes(app: App) {
  app.get('/scanner', { schema: { hide: true } }, async (req, reply) => {
    const lang = (req.query as { lang?: string }).lang === 'es' ? 'es' : 'en';
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header(
        'Content-Security-Policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; media-src 'self' blob: mediastream:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      )
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Permissions-Policy', 'camera=(self)')
      .send(renderScannerPage({ lang, nonce }));
  });
}
