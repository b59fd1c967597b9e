/**
 * Routes of reminder e-mails on or off (issue 41 point 9): PUT /auth/reminders (the signed-in holder's switch), and
 * the reminder's unsubscribe link `GET|POST /reminders/unsubscribe?token=…` (RFC 2369 `List-Unsubscribe`, RFC 8058
 * one-click): GET shows a page that asks first, POST turns reminders off (204; 200 with the page for a browser's
 * form). A token that does not work answers 400 `api.reminders.unsubscribe_invalid`, or its page in words.
 */
import { auth, otherLocale, type OrganisationBranding } from '@tp/contract';
import type { FastifyReply } from 'fastify';
import * as z from 'zod';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import { pickLang, type Lang } from '../../lib/lang.js';
import { media } from '../../lib/openapi.js';
import { panelLink } from '../../providers/mail/brand.js';
import { renderUnsubscribePage, type UnsubscribeState } from '../../pages/unsubscribe.page.js';
import { UNSUBSCRIBE_PATH, type RemindersService } from './reminders.service.js';

const html = 'text/html; charset=utf-8';

/** The link's query: its token, and the page's language and organisation (presentation only). */
const linkQuery = z.object({
  token: z.string().max(2048).describe('The signed token of the reminder e-mail’s link'),
  lang: z.string().max(8).optional().describe('The page’s language (`en`, `es`); default Accept-Language'),
  org: z.string().max(100).optional().describe('The slug of the organisation whose brand the page wears'),
});
type LinkQuery = z.infer<typeof linkQuery>;

/** 400: the error body, or (GET, or a browser's form) the page saying the link does not work. */
const invalidAnswer = {
  description: '`api.reminders.unsubscribe_invalid` (a malformed, forged or expired token), or its page for a browser',
  // The error body's fields in a schema of its own: a media answer's schema is converted standalone, where the
  // shared `Error` component cannot be referenced.
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: z.object(auth.errorBody.shape) } },
};

export function remindersRoutes(
  app: App,
  deps: {
    reminders: RemindersService;
    requireAuth: PreHandler;
    publicUrl: string;
    /** The public branding of an organisation by slug; throws for an unknown one. */
    brandingOf: (slug: string) => Promise<OrganisationBranding>;
  },
) {
  app.put(
    '/auth/reminders',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'setReminders',
        summary: 'Turn reminder e-mails before events on or off',
        body: auth.remindersUpdate,
        response: { 200: auth.user },
      },
    },
    async (req) => deps.reminders.setReminders(req.auth.userId, req.body.reminders),
  );

  /** The page in `state` (400 for `invalid`, else 200), for the link's query `q`. */
  async function page(q: LinkQuery, acceptLanguage: string | undefined, reply: FastifyReply, state: UnsubscribeState) {
    const lang: Lang = pickLang(q.lang, acceptLanguage);
    const brand = q.org ? await deps.brandingOf(q.org).catch(() => null) : null;
    const slug = brand ? q.org! : null;
    const link = (l: Lang) => {
      const u = new URLSearchParams({ token: q.token, lang: l, ...(slug ? { org: slug } : {}) });
      return `${UNSUBSCRIBE_PATH}?${u.toString()}`;
    };
    return reply
      .code(state === 'invalid' ? 400 : 200)
      .type(html)
      .header('Cache-Control', 'no-store')
      .send(
        renderUnsubscribePage({
          lang,
          state,
          brand,
          action: link(lang),
          other: link(otherLocale(lang)),
          panel: panelLink(deps.publicUrl, lang, slug, { PANEL_TAB: 'SETTINGS' }),
        }),
      );
  }

  /** Runs `act`; a token that does not work is the invalid page (`asPage`) or the error body. */
  async function orInvalid<T>(act: () => Promise<T>, asPage: boolean): Promise<T | 'invalid'> {
    try {
      return await act();
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'api.reminders.unsubscribe_invalid' || !asPage) throw err;
      return 'invalid';
    }
  }

  app.get(
    UNSUBSCRIBE_PATH.replace(/^\/v1/, ''),
    {
      schema: {
        operationId: 'reminderUnsubscribePage',
        summary: 'The page of the reminder e-mail’s unsubscribe link: asks before anything changes',
        description:
          'A GET never unsubscribes (link scanners fetch links): the page asks, and its button POSTs to the same URL.',
        querystring: linkQuery,
        response: { 200: media('text/html', z.string(), 'The page (in `lang`), no-store'), 400: invalidAnswer },
      },
    },
    async (req, reply) => {
      const on = await orInvalid(() => deps.reminders.remindersOn(req.query.token), true);
      return page(req.query, req.headers['accept-language'], reply, on === 'invalid' ? 'invalid' : on ? 'ask' : 'off');
    },
  );

  app.post(
    UNSUBSCRIBE_PATH.replace(/^\/v1/, ''),
    {
      schema: {
        operationId: 'reminderUnsubscribe',
        summary: 'One-click unsubscribe from reminder e-mails (RFC 8058)',
        description:
          'The URL of the reminder’s `List-Unsubscribe` header, with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`: ' +
          'turns the holder’s reminder e-mails off (idempotent). The body (`List-Unsubscribe=One-Click`) is not read. ' +
          '204, or 200 with the page when the request accepts `text/html` (the page’s own button).',
        querystring: linkQuery,
        response: {
          200: media('text/html', z.string(), 'The page saying reminders are off, for a browser'),
          204: z.null(),
          400: invalidAnswer,
        },
      },
    },
    async (req, reply) => {
      const browser = (req.headers.accept ?? '').includes('text/html');
      const done = await orInvalid(() => deps.reminders.unsubscribe(req.query.token), browser);
      if (done === 'invalid' || browser)
        return page(req.query, req.headers['accept-language'], reply, done === 'invalid' ? 'invalid' : 'off');
      return reply.code(204).send(null);
    },
  );
}
