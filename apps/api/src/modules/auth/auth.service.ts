/**
 * Sign-in with an e-mail code, sessions and profile (spec sections 2 Login/OTP/Personal data, 4 Auth flow).
 *
 * Rules (OWASP ASVS 2.7, NIST 800-63B): a 6-digit code from a CSPRNG, stored as a salted HMAC-SHA256 under a
 * server-side pepper (`config.otpPepper`; microseconds, so a sign-in never blocks the event loop: a 20-bit code is
 * protected by its attempt limits, not by a slow hash), valid `otpTtlSeconds`, single use; a new code closes the
 * earlier ones of that e-mail (only the latest works); `otpMaxAttempts` wrong codes close the sign-in; one code per
 * e-mail per `otpResendSeconds`; the answer is the same whether the account exists or not.
 *
 * Composed from its parts: auth.sign-in.ts (asking for and verifying a code), auth.sessions.ts (token pairs,
 * refresh, logout, holder and console tokens), auth.step-up.ts (a fresh proof of presence before a ticket or money
 * moves), auth.passkeys.ts (WebAuthn sign-in and step-up) and auth.users.ts (the account a first sign-in creates).
 */
import type { Database, DbOrTx } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { MailOrganisation } from '../../providers/mail/brand.js';
import type { AccessTokens, ConsoleTokens } from './auth.tokens.js';
import type { Metrics } from '../../lib/metrics.js';
import { createAuthSessions } from './auth.sessions.js';
import { createSignIn } from './auth.sign-in.js';
import { createPasskeys } from './auth.passkeys.js';
import { createStepUp } from './auth.step-up.js';
import { createUser } from './auth.users.js';

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
  | 'stepUpMaxAgeSeconds'
  | 'stepUpCodesPerDay'
  | 'refreshTokenTtlSeconds'
  | 'refreshGraceSeconds'
  | 'productName'
  | 'publicUrl'
  | 'embedOrigins'
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

/**
 * The auth service: sign-in codes, sessions and console tokens, plus `createUser` for the modules that give an
 * account a ticket before its first sign-in (gift, import, issuing).
 */
export function createAuthService(deps: AuthDeps) {
  const { issueTokens, ...sessions } = createAuthSessions(deps);
  return {
    /** The account of `email` (created with `locale` when new), in `tx` when given. */
    createUser: (email: string, locale: string, tx: DbOrTx = deps.database.db) => createUser(tx, email, locale),
    ...createSignIn(deps, issueTokens),
    ...sessions,
    /** Step-up codes (issue 47): auth.step-up.ts. */
    stepUp: createStepUp(deps),
    /** Passkeys (issue 47, decision 049): auth.passkeys.ts. */
    passkeys: createPasskeys(deps, issueTokens),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
