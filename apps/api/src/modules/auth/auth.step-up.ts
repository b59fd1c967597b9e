/**
 * Step-up (issue 47, decision 048): before a ticket or money moves, the signed-in holder proves presence again. The
 * proof is the session's `stepped_up_at`: the sign-in itself, or a step-up code e-mailed to the account's address
 * and verified since. Routes that move a ticket or money say which action they are (`config.stepUp`, lib/http.ts
 * `requireStepUpWith`) and answer 403 `api.auth.step_up_required` when the proof is older than
 * STEP_UP_MAX_AGE_SECONDS.
 *
 * A step-up code follows a sign-in code's rules (auth.service.ts's header): six digits, salted HMAC under the pepper,
 * valid `otpTtlSeconds`, `otpMaxAttempts` wrong tries, one per `otpResendSeconds`; but it belongs to one session,
 * not to an e-mail: a code asked for in one sign-in proves nothing in another.
 */
import { randomUUID } from 'node:crypto';
import { isLocale, type StepUpAction } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import { sameBytes } from '../../lib/secrets.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import type { AuthDeps } from './auth.service.js';
import { hashCode, newCode } from './auth.sign-in.js';
import { stepUpRepository as repo } from './step-up.repository.js';

/**
 * The session's row lock that queues step-up code requests and checks (on by default). Off only in a race test's
 * control (step-up-race.test.ts), which shows that without it parallel wrong codes get more than `otpMaxAttempts`
 * tries.
 */
export const stepUpLocks = { enabled: true };

/** A day, milliseconds: the window of `stepUpCodesPerDay`. */
const DAY_MS = 86_400_000;

/** The signed-in session a step-up belongs to (the `req.auth` of a holder route). */
export interface StepUpSession {
  userId: number;
  sessionId: string;
}

/** The step-up half of the auth service. */
export function createStepUp(deps: AuthDeps & { config: { stepUpMaxAgeSeconds: number; stepUpCodesPerDay: number } }) {
  const { config, now } = deps;
  const db = deps.database.db;

  return {
    /**
     * POST /auth/step-up: e-mails a step-up code for `action` to the account's address, in the account's language,
     * under the brand of the panel that asked (`orgSlug`), ahead of other mail (the `code` class).
     * @returns the address it went to and the seconds until another code may be asked for.
     * @throws AppError `api.auth.resend_too_soon` (429, Retry-After) within `otpResendSeconds` of the session's last
     *   code; `api.too_many_requests` (429, Retry-After: until the oldest of them is a day old) after
     *   `stepUpCodesPerDay` codes of the session in 24 hours; `api.unauthorized` (401) for a session that no longer
     *   exists.
     */
    async request(
      session: StepUpSession,
      action: StepUpAction,
      orgSlug: string | null = null,
    ): Promise<{ sentTo: string; resendAfterSeconds: number }> {
      const organisation = orgSlug ? await deps.organisationOf(orgSlug) : null;
      const at = now();
      const { stored, mailed } = newCode(config, at);
      const email = await db.transaction(async (tx) => {
        const row = await repo.lockSession(tx, session.sessionId, stepUpLocks.enabled);
        if (!row || row.userId !== session.userId) throw new AppError('api.unauthorized');
        const last = await repo.latest(tx, session.sessionId);
        const waited = last ? (at.getTime() - last.createdAt.getTime()) / 1000 : Infinity;
        if (waited < config.otpResendSeconds) {
          const retryAfter = Math.ceil(config.otpResendSeconds - waited);
          throw new AppError('api.auth.resend_too_soon', {}, { 'Retry-After': String(retryAfter) });
        }
        // A day's codes per session are capped (decision 048): five tries each, so a stolen session guesses at most
        // 5 × stepUpCodesPerDay times a day, however long it waits between codes.
        const today = await repo.createdSince(tx, session.sessionId, new Date(at.getTime() - DAY_MS));
        if (today.length >= config.stepUpCodesPerDay) {
          const retryAfter = Math.ceil((today[0].getTime() + DAY_MS - at.getTime()) / 1000);
          throw new AppError('api.too_many_requests', {}, { 'Retry-After': String(retryAfter) });
        }
        await repo.closeOpen(tx, session.sessionId, at);
        await repo.insert(tx, { id: randomUUID(), sessionId: session.sessionId, action, ...stored });
        const locale = isLocale(row.locale) ? row.locale : 'en';
        await enqueueMails(tx, at, [
          { template: 'stepUpCode', to: row.email, locale, org: organisation, params: { ...mailed, action } },
        ]);
        return row.email;
      });
      return { sentTo: email, resendAfterSeconds: config.otpResendSeconds };
    },

    /**
     * POST /auth/step-up/verify: checks the session's newest open step-up code; right, the session is stepped up now.
     * @returns until when the proof holds (ISO 8601, UTC).
     * @throws AppError `api.auth.step_up_no_code` (no open code in this session), `api.auth.otp_expired`,
     *   `api.auth.wrong_otp`, `api.auth.otp_attempts_exceeded` (the code is closed: ask for a new one),
     *   `api.unauthorized` (the session is gone).
     */
    async verify(session: StepUpSession, otp: string): Promise<{ steppedUpUntil: string }> {
      const at = now();
      const outcome = await db.transaction(async (tx) => {
        const row = await repo.lockSession(tx, session.sessionId, stepUpLocks.enabled);
        if (!row || row.userId !== session.userId) return 'api.unauthorized' as const;
        const req = await repo.latest(tx, session.sessionId);
        if (!req || req.closedAt) return 'api.auth.step_up_no_code' as const;
        if (req.expiresAt <= at) {
          await repo.update(tx, req.id, { closedAt: at });
          return 'api.auth.otp_expired' as const;
        }
        if (!sameBytes(hashCode(config.otpPepper, otp, req.salt), Buffer.from(req.codeHash, 'hex'))) {
          const attempts = req.attempts + 1;
          const exhausted = attempts >= config.otpMaxAttempts;
          await repo.update(tx, req.id, { attempts, closedAt: exhausted ? at : null });
          return exhausted ? ('api.auth.otp_attempts_exceeded' as const) : ('api.auth.wrong_otp' as const);
        }
        await repo.update(tx, req.id, { closedAt: at });
        await repo.markSteppedUp(tx, session.sessionId, at);
        return null;
      });
      if (outcome) throw new AppError(outcome);
      return { steppedUpUntil: new Date(at.getTime() + config.stepUpMaxAgeSeconds * 1000).toISOString() };
    },
  };
}
