/** Routes of spec section 7 under /auth: sign-in, code verification, refresh, logout. */
import { auth } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AuthService } from './auth.service.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';
import { pickLang } from '../../lib/lang.js';

export function authRoutes(
  app: App,
  deps: { auth: AuthService; requireAuth: PreHandler; limits: { request: number; verify: number } },
) {
  app.post(
    '/auth/signInOrRegisterAndSignIn',
    {
      config: perIpPerMinute(deps.limits.request),
      schema: { tags: ['auth'], body: auth.signInRequest, response: { 200: auth.signInResponse } },
    },
    // A new account takes the language of the panel that asked for the code (body `locale`, else Accept-Language).
    async (req) => deps.auth.requestCode(req.body.email, pickLang(req.body.locale, req.headers['accept-language'])),
  );

  app.post(
    '/auth/verifyLoginRequest',
    {
      config: perIpPerMinute(deps.limits.verify),
      schema: { tags: ['auth'], body: auth.verifyLoginRequest, response: { 200: auth.tokenPair } },
    },
    async (req) => deps.auth.verifyCode(req.body),
  );

  app.post(
    '/auth/refresh',
    {
      config: perIpPerMinute(deps.limits.verify),
      schema: { tags: ['auth'], body: auth.refreshRequest, response: { 200: auth.refreshResponse } },
    },
    async (req) => deps.auth.refresh(req.body.refreshToken),
  );

  app.get('/auth/logout', { preHandler: deps.requireAuth, schema: { tags: ['auth'] } }, async (req, reply) => {
    await deps.auth.logout(req.auth.sessionId);
    return reply.code(204).send();
  });
}
