/** What the public resale pages share: the page language and the HTML content type. */
import { pickLang, queryLang, type Lang } from '../../lib/lang.js';

/** The page language: `?lang=`, else the order's language (the buyer chose it on the listing page), else Accept-Language. */
export const langOf = (req: { query: unknown; headers: { 'accept-language'?: string } }, orderLocale?: string): Lang =>
  pickLang(queryLang(req) ?? orderLocale, req.headers['accept-language']);

/** The public pages' content type. */
export const html = 'text/html; charset=utf-8';
