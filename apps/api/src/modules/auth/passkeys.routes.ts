/**
 * Routes of passkeys (issue 47, decision 049): register one after a sign-in, sign in with one, step up with one, list
 * and remove them. Options and answers are limited per IP like the code routes, and a signed-in account's ceremonies
 * (registration, step-up) also per account (`limits.perUser` a minute, together); adding and removing a passkey are
 * step-up routes (`passkey_add`, `passkey_removal`): a stolen session can neither plant its own passkey nor remove the
 * holder's without a fresh proof.
 */
import * as z from 'zod';
import { auth } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors } from '../../lib/openapi.js';
import { perIpPerMinute, withinLimit } from '../../lib/rate-limit.js';
import type { AuthService } from './auth.service.js';
import { refreshCookie, type RefreshCookieConfig } from './auth.routes.js';

export function passkeysRoutes(
  app: App,
  deps: {
    auth: AuthService;
    requireAuth: PreHandler;
    limits: { options: number; verify: number; perUser: number };
    cookie: RefreshCookieConfig;
  },
) {
  const { passkeys } = deps.auth;
  const cookie = refreshCookie(deps.cookie);
  const options = perIpPerMinute('passkey_options', deps.limits.options);
  const verify = perIpPerMinute('passkey_verify', deps.limits.verify);
  const signedIn = { preHandler: deps.requireAuth };
  // Per account (after requireAuth), one count for the four signed-in ceremonies' routes.
  const perAccount = app.createRateLimit({
    max: deps.limits.perUser,
    timeWindow: '1 minute',
    keyGenerator: (req) => `user:${req.auth.userId}:passkeys`,
  });
  const ceremony = {
    preHandler: [deps.requireAuth, (req: Parameters<PreHandler>[0]) => withinLimit(perAccount, req, 'passkey_verify')],
  };

  app.post(
    '/auth/passkeys/register/options',
    {
      ...ceremony,
      config: { ...options, stepUp: 'passkey_add' },
      schema: {
        operationId: 'passkeyRegistrationOptions',
        summary: 'Options to create a passkey for the signed-in account (navigator.credentials.create)',
        response: { 200: auth.passkeyCreationOptionsResponse, ...errors(409) },
      },
    },
    async (req) => passkeys.registrationOptions(req.auth),
  );
  app.post(
    '/auth/passkeys/register',
    {
      ...ceremony,
      config: { ...verify, stepUp: 'passkey_add' },
      schema: {
        operationId: 'registerPasskey',
        summary: "Add the browser's new passkey to the account",
        body: auth.passkeyRegistration,
        response: { 201: auth.passkey, ...errors(400, 409) },
      },
    },
    async (req, reply) => {
      const added = await passkeys.register(req.auth, req.body.response, req.headers['user-agent']);
      return reply.code(201).send(added);
    },
  );
  app.post(
    '/auth/passkeys/sign-in/options',
    {
      config: options,
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'Options to sign in with a passkey (navigator.credentials.get, no account named)',
        response: { 200: auth.passkeyRequestOptionsResponse },
      },
    },
    async () => passkeys.signInOptions(),
  );
  app.post(
    '/auth/passkeys/sign-in',
    {
      config: verify,
      onRequest: cookie.guard,
      schema: {
        operationId: 'signInWithPasskey',
        summary: 'Sign in with a passkey: access and refresh tokens, as a verified e-mail code',
        body: auth.passkeyAssertion,
        response: { 200: auth.tokenPair, ...errors(400, 403) },
      },
    },
    async (req, reply) => {
      const tokens = await passkeys.signIn(req.body.response);
      cookie.set(reply, tokens.refreshToken);
      return tokens;
    },
  );
  app.post(
    '/auth/step-up/passkey/options',
    {
      ...ceremony,
      config: options,
      schema: {
        operationId: 'passkeyStepUpOptions',
        summary: "Options to confirm it's you with one of the account's passkeys",
        response: { 200: auth.passkeyRequestOptionsResponse, ...errors(404) },
      },
    },
    async (req) => passkeys.stepUpOptions(req.auth),
  );
  app.post(
    '/auth/step-up/passkey',
    {
      ...ceremony,
      config: verify,
      schema: {
        operationId: 'verifyPasskeyStepUp',
        summary: 'Check a passkey assertion: the session may move tickets and money for STEP_UP_MAX_AGE_SECONDS',
        body: auth.passkeyAssertion,
        response: { 200: auth.stepUpVerified, ...errors(400) },
      },
    },
    async (req) => passkeys.stepUp(req.auth, req.body.response),
  );
  app.get(
    '/auth/passkeys',
    {
      ...signedIn,
      schema: {
        operationId: 'listPasskeys',
        summary: "The account's passkeys: name, created, last used (never a key)",
        response: { 200: auth.passkeyList },
      },
    },
    async (req) => passkeys.list(req.auth.userId),
  );
  app.delete(
    '/auth/passkeys/:id',
    {
      ...signedIn,
      config: { stepUp: 'passkey_removal' },
      schema: {
        operationId: 'removePasskey',
        summary: 'Remove one of the account’s passkeys (the e-mail code always works)',
        params: auth.passkeyParams,
        response: { 204: z.null(), ...errors(404) },
      },
    },
    async (req, reply) => {
      await passkeys.remove(req.auth.userId, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
