/**
 * Routes of the e-mail step-up (issue 47, decision 048): POST /auth/step-up e-mails a code that confirms one action of
 * the signed-in holder, POST /auth/step-up/verify checks it; the session may then move tickets and money for
 * STEP_UP_MAX_AGE_SECONDS. Each is limited per IP like its sign-in counterpart; a code request also per session
 * (OTP_RESEND_SECONDS) and a code's wrong tries (5).
 */
import { auth, branding } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';
import type { AuthService } from './auth.service.js';

export function stepUpRoutes(
  app: App,
  deps: { auth: AuthService; requireAuth: PreHandler; limits: { request: number; verify: number } },
) {
  app.post(
    '/auth/step-up',
    {
      preHandler: deps.requireAuth,
      config: perIpPerMinute('step_up_request', deps.limits.request),
      schema: {
        operationId: 'requestStepUpCode',
        summary: "E-mail a step-up code to the account's address, naming the action it confirms",
        body: auth.stepUpRequest,
        headers: branding.holderHeaders,
        response: { 200: auth.stepUpResponse },
      },
    },
    async (req) => deps.auth.stepUp.request(req.auth, req.body.action, req.headers['x-organisation'] ?? null),
  );
  app.post(
    '/auth/step-up/verify',
    {
      preHandler: deps.requireAuth,
      config: perIpPerMinute('step_up_verify', deps.limits.verify),
      schema: {
        operationId: 'verifyStepUpCode',
        summary: 'Check the step-up code: the session may move tickets and money for STEP_UP_MAX_AGE_SECONDS',
        body: auth.stepUpVerify,
        response: { 200: auth.stepUpVerified },
      },
    },
    async (req) => deps.auth.stepUp.verify(req.auth, req.body.otp),
  );
}
