/**
 * The public door-scanner page: GET /scanner (`?lang=es` for Spanish). The page is the panel
 * workspace's built scanner app (apps/panel/src/scanner, built into `PANEL_DIST_DIR/scanner`); this
 * route serves its index.html with `<html lang>` set to the language, which the app reads. The page
 * holds no secret: it asks door staff for the scanner key and calls /v1/access/* with it (see
 * check-in.service.ts). Strict CSP (scripts and styles only from this origin, no inline ones;
 * fetches, its service worker and manifest only from this origin), no framing, no referrer, camera
 * allowed for this origin only. The page works offline: its service worker (`/scanner/sw.js`, scope
 * `/scanner`, see {@link SCANNER_SW_SCOPE}) keeps the page and its assets.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../../lib/http.js';
import { text } from '../../lib/i18n.js';
import { pickLang, queryLang } from '../../lib/lang.js';
import { escapeHtml } from '../../pages/html.js';

/**
 * The scanner's service worker lives at /scanner/sw.js but controls the page at /scanner (no trailing
 * slash), outside its default scope: the static files answer it with `Service-Worker-Allowed`.
 */
export const SCANNER_SW_SCOPE = '/scanner';

/**
 * The scanner page's Content-Security-Policy. `'wasm-unsafe-eval'`: the camera's fallback QR decoder (zxing-wasm in a worker) compiles WebAssembly;
 * it allows compiling wasm only, not eval of JavaScript.
 */
export const SCANNER_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self' data:; media-src 'self' blob: mediastream:; worker-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** @param deps.panelDistDir the panel build (config `panelDistDir`); the page is `scanner/index.html` in it. */
export function scannerPageRoutes(app: App, deps: { panelDistDir: string }) {
  const indexFile = join(deps.panelDistDir, 'scanner', 'index.html');
  app.get('/scanner', { schema: { hide: true } }, async (req, reply) => {
    const lang = pickLang(queryLang(req));
    // Read per request (a few KB), like the panel document: a rebuild is served without a restart.
    const html = await readFile(indexFile, 'utf8').catch(() => null);
    if (!html) return reply.code(503).type('text/plain').send('The scanner is not built yet: run npm run build.');
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Security-Policy', SCANNER_CSP)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Permissions-Policy', 'camera=(self)')
      .send(
        html
          .replace('<html lang="en"', `<html lang="${lang}"`)
          // The page's title and installed app in its language (issue 29; apps/panel/src/manifests.ts).
          .replace('<title>Door scanner</title>', `<title>${escapeHtml(text(lang, 'pages.scanner.title'))}</title>`)
          .replace('/scanner/manifest.webmanifest', `/scanner/manifest-${lang}.webmanifest`),
      );
  });
}
