/**
 * The organiser's console page (issue 21, decision 024): GET /console and each screen's URL under it,
 * `/console/<screen>` and `/console/<screen>/…` for the contract's `CONSOLE_SCREENS` (issue 41, point 5: a reload,
 * a bookmark or a link opens that screen; the console reads it from the path), `?lang=es` for Spanish. The page is the
 * panel workspace's built console app (apps/panel/src/console, built into `PANEL_DIST_DIR/console`); this route
 * serves its index.html with `<html lang>` and the title in the language. The page holds no secret: members sign
 * in with their e-mail code and the app calls /v1 on this origin. Strict CSP (scripts and styles only from this
 * origin, no inline ones; fetches only to this origin; https images for organisers' logos; Stripe's Connect.js only
 * when Stripe is configured), no framing, no referrer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_SCREENS } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { text } from '../../lib/i18n.js';
import { pickLang, queryLang } from '../../lib/lang.js';
import { STRIPE_CONNECT } from '../../lib/security-headers.js';
import { escapeHtml } from '../../pages/html.js';

/**
 * The console page's Content-Security-Policy. With Stripe (`stripe`: STRIPE_PUBLISHABLE_KEY is set) it lets in
 * Connect.js's script, frames, inline styles and API calls, for the organisation's payout onboarding (issue 45), as
 * the panel's policy does for the holders' payout tab; without it nothing from outside.
 */
export function consoleCsp(stripe: boolean): string {
  const from = (own: string) => [own, ...(stripe ? STRIPE_CONNECT : [])].join(' ');
  return [
    "default-src 'none'",
    `script-src ${from("'self'")}`,
    `style-src 'self'${stripe ? " 'unsafe-inline'" : ''}`,
    `connect-src 'self'${stripe ? ' https://api.stripe.com' : ''}`,
    ...(stripe ? [`frame-src ${from("'self'")}`] : []),
    "img-src 'self' https: data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * @param deps.panelDistDir the panel build (config `panelDistDir`); the page is `console/index.html` in it.
 * @param deps.stripe whether Stripe is configured (its sources join the page's policy, {@link consoleCsp}).
 */
export function consolePageRoutes(app: App, deps: { panelDistDir: string; stripe: boolean }) {
  const indexFile = join(deps.panelDistDir, 'console', 'index.html');
  const csp = consoleCsp(deps.stripe);
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const lang = pickLang(queryLang(req));
    // Read per request (a few hundred bytes), like the panel document: a rebuild is served without a restart.
    const html = await readFile(indexFile, 'utf8').catch(() => null);
    if (!html) return reply.code(503).type('text/plain').send('The console is not built yet: run npm run build.');
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', csp)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .send(
        html
          .replace('<html lang="en"', `<html lang="${lang}"`)
          .replace(
            '<title>Organiser console</title>',
            `<title>${escapeHtml(text(lang, 'pages.console.title'))}</title>`,
          ),
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
