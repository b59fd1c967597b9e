/** What the public resale pages share: the page language, the HTML content type and the page of a user's mistake. */
import type { FastifyReply } from 'fastify';
import type { MessageKey } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import { pickLang, queryLang, type Lang } from '../../lib/lang.js';
import { renderResaleMessage, resaleText } from '../../pages/resale.page.js';

/** The page language: `?lang=`, else the order's language (the buyer chose it on the listing page), else Accept-Language. */
export const langOf = (req: { query: unknown; headers: { 'accept-language'?: string } }, orderLocale?: string): Lang =>
  pickLang(queryLang(req) ?? orderLocale, req.headers['accept-language']);

/** The public pages' content type. */
export const html = 'text/html; charset=utf-8';

/** The resale pages' fixed texts. */
type ResaleText = ReturnType<typeof resaleText>;

/**
 * Answers a user's mistake or an outside outage on a public resale page as that page's message, never a 500:
 * `err`'s HTTP status and headers (`Retry-After` of a 503), the page's heading (`title`, a text of `pages.resale`)
 * and the text `message` picks for its message key. Anything but an AppError is thrown again (the error handler
 * answers it).
 */
export function sendResaleError(
  reply: FastifyReply,
  err: unknown,
  lang: Lang,
  title: 'listing' | 'checkout',
  message: (code: MessageKey, text: ResaleText) => string,
): FastifyReply {
  if (!(err instanceof AppError)) throw err;
  const text = resaleText(lang);
  return reply
    .code(err.status)
    .headers(err.headers)
    .type(html)
    .send(renderResaleMessage(lang, text[title], message(err.code, text)));
}
