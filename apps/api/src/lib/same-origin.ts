/**
 * Login CSRF by cookie planting (issue 19, break 2; decision 012): the endpoints that set the refresh
 * cookie take JSON only, and only from this service's own pages. A plain HTML form on another site can
 * only send `application/x-www-form-urlencoded`, `multipart/form-data` or `text/plain`, and its browser
 * always says where it comes from (`Origin`, and `Sec-Fetch-Site` in every current browser); a JSON POST
 * from another origin needs a CORS preflight this service never answers. So without this guard a form
 * could make the victim's browser store the attacker's session; with it, such a request is refused
 * before its body is read.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/** `Origin` equal to `PUBLIC_URL`'s origin or to the request's own origin (the panel document is served from here). */
export function isOwnOrigin(req: FastifyRequest, publicOrigin: string): boolean {
  const origin = req.headers.origin;
  return Boolean(origin) && (origin === publicOrigin || origin === `${req.protocol}://${req.host}`);
}

/**
 * True when a browser says the request was made by another site or origin: an `Origin` header that is not
 * ours (`null` included), or, without `Origin`, a `Sec-Fetch-Site` other than `same-origin` or `none`.
 * A request with neither header is not from a browser page (a native app, a server) and cannot plant a
 * cookie in anyone's browser.
 */
function crossOrigin(req: FastifyRequest, publicOrigin: string): boolean {
  if (req.headers.origin !== undefined) return !isOwnOrigin(req, publicOrigin);
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/**
 * An `onRequest` hook for routes that set the refresh cookie: refuses anything but `application/json`
 * and any request a browser marks as cross-origin.
 * @throws AppError `api.auth.cross_site_request` (403).
 */
export function ownOriginJsonOnly(publicOrigin: string) {
  return (req: FastifyRequest): Promise<void> => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json' || crossOrigin(req, publicOrigin))
      return Promise.reject(new AppError('api.auth.cross_site_request'));
    return Promise.resolve();
  };
}
