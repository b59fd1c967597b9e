/** Routes of spec section 7 under /auth: sign-in, code verification, refresh, logout. */
import type { FastifyReply } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import * as z from 'zod';
import { auth, branding } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AuthService } from './auth.service.js';
import { AppError } from '../../lib/app-error.js';
import { errors } from '../../lib/openapi.js';
import { ipKey, perIpPerMinute } from '../../lib/rate-limit.js';
import { pickLang } from '../../lib/lang.js';
import { isOwnOrigin, ownOriginJsonOnly } from '../../lib/same-origin.js';

/**
 * The refresh cookie (decision 012): the refresh token of the latest sign-in or refresh, HttpOnly,
 * Secure, `SameSite=None; Partitioned` (CHIPS), so the panel embedded on an organiser's site keeps its
 * session across reloads where the browser blocks third-party cookies. Sent only to `/v1/auth/`.
 */
export const REFRESH_COOKIE = 'tp_refresh';

export interface RefreshCookieConfig {
  /** Lifetime of the cookie, seconds (the refresh token's absolute lifetime). */
  maxAgeSeconds: number;
  /** This service's public origin (`PUBLIC_URL`): the only page origin allowed to refresh by cookie. */
  publicOrigin: string;
}

function cookieOptions(maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    path: '/v1/auth/',
    httpOnly: true,
    secure: true,
    sameSite: 'none',
    partitioned: true,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

/**
 * The refresh cookie's setter and clearer, and the `onRequest` guard of every route that sets it: JSON from this
 * service's own pages only (login CSRF, decision 012).
 */
export function refreshCookie(cookie: RefreshCookieConfig) {
  return {
    set: (reply: FastifyReply, refreshToken: string) =>
      reply.setCookie(REFRESH_COOKIE, refreshToken, cookieOptions(cookie.maxAgeSeconds)),
    clear: (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, cookieOptions()),
    guard: ownOriginJsonOnly(cookie.publicOrigin),
  };
}

export function authRoutes(
  app: App,
  deps: {
    auth: AuthService;
    requireAuth: PreHandler;
    limits: { request: number; verify: number };
    cookie: RefreshCookieConfig;
  },
) {
  const { set: setRefreshCookie, clear: clearRefreshCookie, guard: cookieGuard } = refreshCookie(deps.cookie);

  app.post(
    '/auth/signInOrRegisterAndSignIn',
    {
      config: perIpPerMinute('sign_in_request', deps.limits.request),
      schema: {
        operationId: 'requestSignInCode',
        summary: 'E-mail a sign-in code (creates the account on first use)',
        body: auth.signInRequest,
        headers: branding.holderHeaders,
        response: { 200: auth.signInResponse, ...errors(404) },
      },
    },
    // A new account takes the language of the panel that asked for the code (body `locale`, else Accept-Language);
    // the code mail, the brand of the organisation whose panel asked (X-Organisation, issue 23).
    async (req) =>
      deps.auth.requestCode(
        req.body.email,
        pickLang(req.body.locale, req.headers['accept-language']),
        req.headers['x-organisation'] ?? null,
      ),
  );

  // A spent sign-in hands out a new code (verifyCode) only within the per-IP limit of code requests.
  const resendLimit = app.createRateLimit({
    max: deps.limits.request,
    timeWindow: '1 minute',
    keyGenerator: (req) => `otp-resend:${ipKey(req)}`,
  });
  app.post(
    '/auth/verifyLoginRequest',
    {
      config: perIpPerMinute('sign_in_verify', deps.limits.verify),
      onRequest: cookieGuard,
      schema: {
        operationId: 'verifySignInCode',
        summary: 'Sign in with the e-mailed code: access and refresh tokens',
        body: auth.verifyLoginRequest,
        headers: branding.holderHeaders,
        response: { 200: auth.tokenPair, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const tokens = await deps.auth.verifyCode(
        req.body,
        async () => {
          const limit = await resendLimit(req);
          return limit.isAllowed || !limit.isExceeded;
        },
        req.headers['x-organisation'] ?? null,
      );
      setRefreshCookie(reply, tokens.refreshToken);
      return tokens;
    },
  );

  /*
   * With `refreshToken` in the body (spec section 7), as before. Without it, the refresh cookie is used,
   * and only for a request from this service's own origin (CSRF, decision 012): a cross-site page can
   * neither rotate the holder's token nor read the answer (no CORS). Every answer rotates the cookie;
   * a refused cookie is cleared.
   */
  app.post(
    '/auth/refresh',
    {
      config: perIpPerMinute('token_refresh', deps.limits.verify),
      onRequest: cookieGuard,
      schema: {
        operationId: 'refreshTokens',
        summary: 'Rotate the refresh token (body, or the refresh cookie from our own origin) for new tokens',
        body: auth.refreshRequest,
        response: { 200: auth.refreshResponse, ...errors(401, 403) },
      },
    },
    async (req, reply) => {
      const fromBody = req.body.refreshToken;
      // The one route that reads a cookie parses it here (the plugin does not parse every request's: app/plugins.ts).
      const fromCookie = isOwnOrigin(req, deps.cookie.publicOrigin)
        ? app.parseCookie(req.headers.cookie ?? '')[REFRESH_COOKIE]
        : undefined;
      const refreshToken = fromBody ?? fromCookie;
      if (!refreshToken) throw new AppError('api.auth.token_not_authorized');
      try {
        const tokens = await deps.auth.refresh(refreshToken);
        setRefreshCookie(reply, tokens.refreshToken);
        return tokens;
      } catch (err) {
        if (!fromBody) clearRefreshCookie(reply);
        throw err;
      }
    },
  );

  const logout = { operationId: 'logout', summary: 'Sign out this session', response: { 204: z.null() } };
  app.get('/auth/logout', { preHandler: deps.requireAuth, schema: logout }, async (req, reply) => {
    await deps.auth.logout(req.auth.sessionId);
    clearRefreshCookie(reply);
    return reply.code(204).send(null);
  });
}
