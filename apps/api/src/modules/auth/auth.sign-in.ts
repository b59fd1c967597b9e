/**
 * Sign-in with an e-mail code (spec sections 2 Login/OTP, 4 Auth flow): a code is asked for, mailed and verified;
 * a verified code creates the account on first sign-in and opens a session (auth.sessions.ts issues its tokens).
 * The rules (attempts, lifetime, resend window, pepper) are in auth.service.ts's header.
 */
import { createHmac, randomInt, randomUUID, randomBytes } from 'node:crypto';
import { isLocale, type Locale } from '@tp/contract';
import { isUuid } from '@tp/contract/fields';
import { sameBytes } from '../../lib/secrets.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { AppError } from '../../lib/app-error.js';
import { authRepository as repo } from './auth.repository.js';
import type { AuthConfig, AuthDeps } from './auth.service.js';
import { createUser } from './auth.users.js';
import { openSession } from './auth.sessions.js';

/** HMAC-SHA256(pepper, "<salt>:<code>") as 32 bytes; compared with `sameBytes` (lib/secrets.ts). */
export const hashCode = (pepper: Uint8Array, code: string, salt: string) =>
  createHmac('sha256', pepper).update(`${salt}:${code}`).digest();

/**
 * A new code made at `at` (six digits from a CSPRNG), as a sign-in code and a step-up code both use it: `stored`, the
 * columns of its row (its salt, its hash under `otpPepper` in hex, `createdAt` = `at`, `expiresAt` = `at` +
 * `otpTtlSeconds`); `mailed`, the params of its mail (the code and its lifetime in whole minutes).
 */
export function newCode(config: Pick<AuthConfig, 'otpPepper' | 'otpTtlSeconds'>, at: Date) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  return {
    stored: {
      codeHash: hashCode(config.otpPepper, code, salt).toString('hex'),
      salt,
      createdAt: at,
      expiresAt: new Date(at.getTime() + config.otpTtlSeconds * 1000),
    },
    mailed: { code, minutes: Math.round(config.otpTtlSeconds / 60) },
  };
}

/** Internal: the sign-in session is spent; verifyCode answers `code`, with a new session when it may send one. */
class SpentSignIn extends Error {
  constructor(
    readonly code: 'api.auth.login_session_failed' | 'api.auth.otp_expired' | 'api.auth.otp_attempts_exceeded',
    readonly email: string,
    readonly locale: Locale,
  ) {
    super(code);
  }
}

/** Opens the token pair of a verified sign-in (auth.sessions.ts). */
type IssueTokens = (
  userId: number,
  sessionId: string,
  at: Date,
) => Promise<{ accessToken: string; refreshToken: string }>;

/**
 * One verification of a code: the token pair of the session it opens.
 * @throws SpentSignIn for a spent sign-in session of the given e-mail (see verifyCode); AppError
 *   `api.auth.wrong_otp` (its attempts not yet out) or `api.auth.login_session_failed` (unknown session)
 */
async function verifyOnce(
  deps: AuthDeps,
  issueTokens: IssueTokens,
  input: { otp: string; session: string; email: string },
) {
  const { config } = deps;
  const db = deps.database.db;
  const at = deps.now();
  const outcome = await db.transaction(async (tx) => {
    const req = isUuid(input.session) ? await repo.lockLoginRequest(tx, input.session) : undefined;
    if (!req || req.email !== input.email) return { error: 'api.auth.login_session_failed' as const };
    const spent = { email: req.email, locale: req.locale };
    if (req.closedAt) return { error: 'api.auth.login_session_failed' as const, spent };
    if (req.expiresAt <= at) {
      await repo.updateLoginRequest(tx, req.id, { closedAt: at });
      return { error: 'api.auth.otp_expired' as const, spent };
    }
    const stored = Buffer.from(req.codeHash, 'hex');
    const given = hashCode(config.otpPepper, input.otp, req.salt);
    const ok = sameBytes(given, stored);
    if (!ok) {
      const attempts = req.attempts + 1;
      const exhausted = attempts >= config.otpMaxAttempts;
      await repo.updateLoginRequest(tx, req.id, { attempts, closedAt: exhausted ? at : null });
      if (exhausted) return { error: 'api.auth.otp_attempts_exceeded' as const, spent };
      return { error: 'api.auth.wrong_otp' as const };
    }
    await repo.updateLoginRequest(tx, req.id, { closedAt: at });
    const user = (await repo.userByEmail(tx, req.email)) ?? (await createUser(tx, req.email, req.locale));
    // The account takes the language of the panel it signs in from: its later mails are in it (issue 29).
    if (user.locale !== req.locale && isLocale(req.locale)) await repo.setUserLocale(tx, user.id, req.locale);
    // A sign-in with a code is a proof of presence at that moment (issue 47): a step-up.
    const sessionId = await openSession(tx, user.id, at, config);
    return { userId: user.id, sessionId };
  });
  if ('error' in outcome) {
    const spent = 'spent' in outcome ? outcome.spent : undefined;
    if (spent) throw new SpentSignIn(outcome.error as SpentSignIn['code'], spent.email, spent.locale as Locale);
    throw new AppError(outcome.error!);
  }
  return issueTokens(outcome.userId, outcome.sessionId, at);
}

/** The sign-in half of the auth service: `requestCode` and `verifyCode`. */
export function createSignIn(deps: AuthDeps, issueTokens: IssueTokens) {
  const { config, now } = deps;
  const db = deps.database.db;

  const signIn = {
    /**
     * POST /auth/signInOrRegisterAndSignIn: e-mails a new code and returns the sign-in session id and the seconds
     * until another code may be asked for (`otpResendSeconds`). The mail is in `locale` and, from an
     * organisation's panel (`orgSlug`, its `X-Organisation`), carries that organisation's name, logo and colour.
     * @throws AppError `api.auth.resend_too_soon` (429, Retry-After seconds) within `otpResendSeconds` of the last code.
     *   While that code is still open (not used, expired or out of attempts) the error also carries its `sessionId`
     *   and `resendAfterSeconds` (issue 23): the panel opens the code step of the code already in the inbox,
     *   with the resend countdown. It names no session a new request would not hand out (anyone may ask for a
     *   code for an e-mail), and the code's attempts stay limited by `otpMaxAttempts`.
     *   `api.organisation.not_found` (404) for an unknown `orgSlug` (before any code is made).
     */
    async requestCode(
      email: string,
      locale: Locale = 'en',
      orgSlug: string | null = null,
    ): Promise<{ sessionId: string; resendAfterSeconds: number }> {
      const organisation = orgSlug ? await deps.organisationOf(orgSlug) : null;
      const at = now();
      const { stored, mailed } = newCode(config, at);
      const id = randomUUID();
      await db.transaction(async (tx) => {
        // One code per e-mail per resend window even for parallel requests: they queue here.
        await repo.lockLoginRequestsOf(tx, email);
        const last = await repo.latestLoginRequest(tx, email);
        if (last) {
          const waited = (at.getTime() - last.createdAt.getTime()) / 1000;
          if (waited < config.otpResendSeconds) {
            const retryAfter = Math.ceil(config.otpResendSeconds - waited);
            const open = !last.closedAt && last.expiresAt > at && last.attempts < config.otpMaxAttempts;
            throw new AppError(
              'api.auth.resend_too_soon',
              open ? { sessionId: last.id, resendAfterSeconds: retryAfter } : {},
              { 'Retry-After': String(retryAfter) },
            );
          }
        }
        await repo.closeOpenLoginRequests(tx, email, at);
        await repo.insertLoginRequest(tx, { id, email, locale, ...stored });
        // A mail job with the request (decision 030), sent at once by this instance's woken worker. In the
        // language of the panel that asked (issue 29), not the account's: the holder reads it now.
        await enqueueMails(tx, at, [{ template: 'signInCode', to: email, locale, org: organisation, params: mailed }]);
      });
      deps.metrics.signIn('code_sent');
      return { sessionId: id, resendAfterSeconds: config.otpResendSeconds };
    },

    /**
     * POST /auth/verifyLoginRequest: checks the code of the sign-in `session`, creates the account
     * on first sign-in and opens a session.
     *
     * When the sign-in session of that e-mail is spent (its attempts ran out, its code expired, or it was
     * closed) a new code is e-mailed and the error carries its `sessionId` (spec sections 3 and 8: "Error
     * responses may carry a new sessionId"), so the holder goes on with the next code. The new code is a
     * code request like any other: the per-e-mail resend window holds (within it, the error comes without a
     * `sessionId`), and `mayResend` (the route's per-IP limit of code requests) is asked first, so this
     * opens no guessing budget that asking for codes would not. An unknown session id sends nothing.
     * @throws AppError `api.auth.wrong_otp`, `api.auth.otp_expired`, `api.auth.otp_attempts_exceeded`,
     *   `api.auth.login_session_failed` (unknown, superseded or used sign-in); the last three with
     *   `sessionId` when a new code was sent.
     */
    async verifyCode(
      input: { otp: string; session: string; email: string },
      mayResend: () => Promise<boolean> = () => Promise.resolve(true),
      orgSlug: string | null = null,
    ) {
      try {
        const pair = await verifyOnce(deps, issueTokens, input);
        deps.metrics.signIn('verified');
        return pair;
      } catch (err) {
        if (err instanceof AppError || err instanceof SpentSignIn) deps.metrics.signIn('failed');
        if (!(err instanceof SpentSignIn)) throw err;
        let next: { sessionId: string } | null = null;
        let headers: Record<string, string> = {};
        if (await mayResend()) {
          try {
            next = await signIn.requestCode(err.email, err.locale, orgSlug);
          } catch (resendErr) {
            if (!(resendErr instanceof AppError && resendErr.code === 'api.auth.resend_too_soon')) throw resendErr;
            headers = resendErr.headers; // Retry-After: when asking again hands out a new code
          }
        }
        throw new AppError(err.code, next ? { sessionId: next.sessionId } : {}, headers);
      }
    },
  };
  return signIn;
}
