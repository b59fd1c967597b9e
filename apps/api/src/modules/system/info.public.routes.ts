/** Public pages GET /help and GET /app (the defaults of HELP_CENTER_URL and APP_URL), in `?lang=` or Accept-Language. */
import type { App } from '../../lib/http.js';
import { pickLang, queryLang } from '../../lib/lang.js';
import { renderAppPage, renderHelpPage } from '../../pages/info.page.js';

export function infoPageRoutes(app: App, deps: { productName: string }) {
  for (const [path, render] of [
    ['/help', renderHelpPage],
    ['/app', renderAppPage],
  ] as const) {
    app.get(path, { schema: { hide: true } }, async (req, reply) => {
      const lang = pickLang(queryLang(req), req.headers['accept-language']);
      return reply
        .type('text/html; charset=utf-8')
        .header('Vary', 'Accept-Language')
        .header('Cache-Control', 'public, max-age=300')
        .send(render({ lang, productName: deps.productName }));
    });
  }
}
