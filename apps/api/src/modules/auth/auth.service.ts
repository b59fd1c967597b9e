/**
 * Sign-in with an e-mail code, sessions and profile (spec sections 2 Login/OTP/Personal data, 4 Auth flow).
 *
 * Rules (OWASP ASVS 2.7, NIST 800-63B): a 6-digit code from a CSPRNG, stored as a salted HMAC-SHA256 under a
 * server-side pepper (`config.otpPepper`; microseconds, so a sign-in never blocks the event loop: a 20-bit code is
 * protected by its attempt limits, not by a slow hash), valid `otpTtlSeconds`, single use; a new code closes the
 * earlier ones of that e-mail (only the latest works); `otpMaxAttempts` wrong codes close the sign-in; one code per
 * e-mail per `otpResendSeconds`; the answer is the same whether the account exists or not.
 */
import { createHmac, randomInt, randomUUID, randomBytes } from 'node:crypto';
import { sameBytes } from '../../lib/secrets.js';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Config } from '../../config.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import type { Locale } from '@tp/contract';
import type { MailOrganisation } from '../../providers/mail/brand.js';
import { AppError } from '../../lib/app-error.js';
import { authRepository as repo, type UserRow } from './auth.repository.js';
import {
  hashRefreshToken,
  newRefreshToken,
  type AccessTokens,
  type ConsoleClaims,
  type ConsoleTokens,
} from './auth.tokens.js';
import { fullName, usernameOf, type User } from '@tp/contract';
import { isUuid } from '@tp/contract/fields';
import type { Metrics } from '../../lib/metrics.js';

/**
 * The settings the auth service reads: the code pepper, attempts and lifetimes (seconds), the refresh token's
 * lifetime and grace (seconds), the product name and public URL of the code mail's brand.
 */
export type AuthConfig = Pick<
  Config,
  | 'otpPepper'
  | 'otpMaxAttempts'
  | 'otpTtlSeconds'
  | 'otpResendSeconds'
  | 'refreshTokenTtlSeconds'
  | 'refreshGraceSeconds'
  | 'productName'
  | 'publicUrl'
>;

export interface AuthDeps {
  database: Database;
  config: AuthConfig;
  tokens: AccessTokens;
  /** Console tokens (issue 21): the organiser routes take them, the holder routes never. */
  consoleTokens: ConsoleTokens;
  now: () => Date;
  /**
   * The organisation a panel's `X-Organisation` slug names, for the code mail's brand (issue 23).
   * @throws AppError `api.organisation.not_found` (404) for an unknown slug
   */
  organisationOf: (slug: string) => Promise<MailOrganisation>;
  /** Counts codes sent, verified and refused (`tp_sign_ins_total`, decision 031). */
  metrics: Pick<Metrics, 'signIn'>;
}

/** HMAC-SHA256(pepper, "<salt>:<code>") as 32 bytes; compared with `sameBytes` (lib/secrets.ts). */
const hashCode = (pepper: Uint8Array, code: string, salt: string) =>
  createHmac('sha256', pepper).update(`${salt}:${code}`).digest();

/** Maps a user row to the User entity of spec section 3. */
export function toUser(u: UserRow): User {
  return {
    email: u.email,
    givenName: u.givenName,
    familyName: u.familyName,
    middleName: null,
    name: fullName(u),
    nickname: u.nickname,
    preferredUsername: usernameOf(u),
    uniqueID: `#${u.usernameSuffix}`,
    picture: u.picture,
    phoneNumber: u.phoneNumber,
    locale: u.locale,
    address: null,
    birthdate: null,
    gender: null,
    profile: null,
    website: null,
    zoneInfo: null,
    reminders: u.remindersOffAt === null,
  };
}

/**
 * The default nickname of a new account (issue 13, privacy): a neutral word in the account's language,
 * never derived from the e-mail address; the username is `nickname#suffix` with the random suffix.
 */
export function defaultNickname(locale: string): string {
  return locale === 'es' ? 'invitado' : 'guest';
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

// Over 150 lines: sign-in codes, sessions and console tokens share one closure (secrets, clock, limits); not yet
// split (issue 43).
export function createAuthService(deps: AuthDeps) {
  const { database, config, tokens, consoleTokens, now } = deps;

  /** Whether the sign-in session is open and the account's. */
  async function sessionIsLive(sessionId: string, userId: number, at: Date): Promise<boolean> {
    const session = await repo.sessionById(db, sessionId);
    return !!session && !session.revokedAt && session.expiresAt > at && session.userId === userId;
  }
  const db = database.db;

  /** Creates a user with a fresh unique numeric suffix (4 digits, more if crowded). */
  async function createUser(email: string, locale: string, tx: DbOrTx = db): Promise<UserRow> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const digits = attempt < 20 ? 4 : attempt < 40 ? 6 : 9;
      const suffix = randomInt(10 ** (digits - 1), 10 ** digits);
      const created = await repo.insertUser(tx, {
        email,
        nickname: defaultNickname(locale),
        usernameSuffix: suffix,
        locale,
      });
      if (created) return created;
      const existing = await repo.userByEmail(tx, email);
      if (existing) return existing;
    }
    throw new AppError('api.auth.internal_error');
  }

  async function issueTokens(userId: number, sessionId: string, at: Date) {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(db, refresh.hash, sessionId, at);
    const accessToken = tokens.sign({ userId, sessionId }, at);
    return { accessToken, refreshToken: refresh.token };
  }

  /** One verification; a spent sign-in session of the given e-mail throws SpentSignIn (see verifyCode). */
  async function verifyOnce(input: { otp: string; session: string; email: string }) {
    const at = now();
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
      const user = (await repo.userByEmail(tx, req.email)) ?? (await createUser(req.email, req.locale, tx));
      // The account takes the language of the panel it signs in from: its later mails are in it (issue 29).
      if (user.locale !== req.locale && (req.locale === 'en' || req.locale === 'es'))
        await repo.setUserLocale(tx, user.id, req.locale);
      const sessionId = randomUUID();
      await repo.insertSession(tx, {
        id: sessionId,
        userId: user.id,
        createdAt: at,
        expiresAt: new Date(at.getTime() + config.refreshTokenTtlSeconds * 1000),
      });
      return { userId: user.id, sessionId };
    });
    if ('error' in outcome) {
      const spent = 'spent' in outcome ? outcome.spent : undefined;
      if (spent) throw new SpentSignIn(outcome.error as SpentSignIn['code'], spent.email, spent.locale as Locale);
      throw new AppError(outcome.error!);
    }
    return issueTokens(outcome.userId, outcome.sessionId, at);
  }

  const service = {
    createUser,

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
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const salt = randomBytes(16).toString('hex');
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
        await repo.insertLoginRequest(tx, {
          id,
          email,
          locale,
          codeHash: hashCode(config.otpPepper, code, salt).toString('hex'),
          salt,
          createdAt: at,
          expiresAt: new Date(at.getTime() + config.otpTtlSeconds * 1000),
        });
        // A mail job with the request (decision 030), sent at once by this instance's woken worker. In the
        // language of the panel that asked (issue 29), not the account's: the holder reads it now.
        await enqueueMails(tx, at, [
          {
            template: 'signInCode',
            to: email,
            locale,
            org: organisation,
            params: { code, minutes: Math.round(config.otpTtlSeconds / 60) },
          },
        ]);
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
        const pair = await verifyOnce(input);
        deps.metrics.signIn('verified');
        return pair;
      } catch (err) {
        if (err instanceof AppError || err instanceof SpentSignIn) deps.metrics.signIn('failed');
        if (!(err instanceof SpentSignIn)) throw err;
        let next: { sessionId: string } | null = null;
        let headers: Record<string, string> = {};
        if (await mayResend()) {
          try {
            next = await service.requestCode(err.email, err.locale, orgSlug);
          } catch (resendErr) {
            if (!(resendErr instanceof AppError && resendErr.code === 'api.auth.resend_too_soon')) throw resendErr;
            headers = resendErr.headers; // Retry-After: when asking again hands out a new code
          }
        }
        throw new AppError(err.code, next ? { sessionId: next.sessionId } : {}, headers);
      }
    },

    /**
     * POST /auth/refresh: exchanges a refresh token for a new pair (rotation). A token already
     * rotated more than `refreshGraceSeconds` ago is a replay: the whole sign-in is revoked.
     * @throws AppError `api.auth.token_not_authorized` (401).
     */
    async refresh(refreshToken: string) {
      const at = now();
      const hash = hashRefreshToken(refreshToken);
      const result = await db.transaction(async (tx) => {
        const row = await repo.lockRefreshToken(tx, hash);
        if (!row) return null;
        const { token, session } = row;
        if (session.revokedAt || session.expiresAt <= at) return null;
        if (token.rotatedAt && at.getTime() - token.rotatedAt.getTime() > config.refreshGraceSeconds * 1000) {
          await repo.revokeSession(tx, session.id, at);
          return 'replay' as const;
        }
        await repo.markRotated(tx, hash, at);
        return { userId: session.userId, sessionId: session.id };
      });
      if (result === null || result === 'replay') throw new AppError('api.auth.token_not_authorized');
      return issueTokens(result.userId, result.sessionId, at);
    },

    /** GET /auth/logout: revokes the sign-in (all its refresh tokens and access tokens). */
    async logout(sessionId: string): Promise<void> {
      await repo.revokeSession(db, sessionId, now());
    },

    /**
     * Resolves a bearer token to its user; null when the token is invalid, expired, or its
     * sign-in was revoked or ended.
     */
    async authenticate(bearer: string): Promise<{ userId: number; sessionId: string } | null> {
      const at = now();
      const claims = tokens.verify(bearer, at);
      if (!claims) return null;
      return (await sessionIsLive(claims.sessionId, claims.userId, at)) ? claims : null;
    },

    /**
     * A console token (issue 21) for the signed-in holder session, acting on `organisationId`; the caller has
     * checked the membership. Valid `accessTokenTtlSeconds`; ends with the sign-in session (logout ends both).
     * @returns the token and its lifetime, seconds.
     */
    consoleToken(claims: { userId: number; sessionId: string }, organisationId: number) {
      const accessToken = consoleTokens.sign({ ...claims, organisationId }, now());
      return { accessToken, expiresIn: consoleTokens.ttlSeconds };
    },

    /**
     * Resolves a console token to its account, session and organisation; null when it is not a console token
     * (a holder token is not one), is expired, or its sign-in was revoked or ended.
     */
    async authenticateConsole(bearer: string): Promise<ConsoleClaims | null> {
      const at = now();
      const claims = consoleTokens.verify(bearer, at);
      if (!claims) return null;
      return (await sessionIsLive(claims.sessionId, claims.userId, at)) ? claims : null;
    },
  };
  return service;
}
export type AuthService = ReturnType<typeof createAuthService>;
