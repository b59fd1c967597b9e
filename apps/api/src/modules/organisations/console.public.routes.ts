/**
 * The organiser's console page (issue 21, decision 024): GET /console and each screen's URL under it,
 * `/console/<screen>` and `/console/<screen>/…` for the contract's `CONSOLE_SCREENS` (issue 41, point 5: a reload,
 * a bookmark or a link opens that screen; the console reads it from the path), `?lang=es` for Spanish. The page is the
 * panel workspace's built console app (apps/panel/src/console, built into `PANEL_DIST_DIR/console`); this route
 * serves its index.html with `<html lang>` and the title in the language. The page holds no secret: members sign
 * in with their e-mail code and the app calls /v1 on this origin. Strict CSP (scripts and styles only from this
 * origin, no inline ones; fetches only to this origin; https images for organisers' logos), no framing, no
 * referrer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_SCREENS } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { pickLang, queryLang } from '../../lib/lang.js';

/** The console page's Content-Security-Policy. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const TITLE = { en: 'Organiser console', es: 'Consola del organizador' } as const;

/** @param deps.panelDistDir the panel build (config `panelDistDir`); the page is `console/index.html` in it. */
export function consolePageRoutes(app: App, deps: { panelDistDir: string }) {
  const indexFile = join(deps.panelDistDir, 'console', 'index.html');
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const lang = pickLang(queryLang(req));
    // Read per request (a few hundred bytes), like the panel document: a rebuild is served without a restart.
    const html = await readFile(indexFile, 'utf8').catch(() => null);
    if (!html) return reply.code(503).type('text/plain').send('The console is not built yet: run npm run build.');
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .send(
        html
          .replace('<html lang="en"', `<html lang="${lang}"`)
          .replace('<title>Organiser console</title>', `<title>${TITLE[lang]}</title>`),
      );
  };
  app.get('/console', { schema: { hide: true } }, page);
  // Only the screens' paths: /console/assets/… stay the build's files (the static route), anything else a 404.
  for (const screen of Object.keys(CONSOLE_SCREENS)) {
    app.get(`/console/${screen}`, { schema: { hide: true } }, page);
    app.get(`/console/${screen}/*`, { schema: { hide: true } }, page);
  }
  app.get('/console/', { schema: { hide: true } }, async (req, reply) => {
    const q = req.url.indexOf('?');
    return reply.redirect(`/console${q >= 0 ? req.url.slice(q) : ''}`);
  });
}
