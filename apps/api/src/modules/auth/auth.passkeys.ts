/**
 * Passkeys for holders (issue 47, decision 049): WebAuthn credentials registered after a sign-in, then used to sign in
 * without an e-mail code and as a step-up (decision 048). Checked with `@simplewebauthn/server`.
 *
 * Rules:
 * - The relying party is the panel's own origin: `rpID` is PUBLIC_URL's host, the expected origin PUBLIC_URL's origin.
 * - Every challenge is the server's, single use and 2 minutes long (`webauthn_challenges`): a response names its
 *   challenge in its client data, and the challenge is marked used in one statement before the signature is checked,
 *   so a replayed or raced response finds it used. A register or step-up challenge belongs to the session that asked.
 * - The authenticator's signature counter must go up where it keeps one (a lower one is a cloned key), and a use is
 *   recorded only while the stored counter is below the new one.
 * - A passkey sign-in opens a session as a verified e-mail code does, with its proof of presence (`stepped_up_at`).
 * - The e-mail code always works: a passkey is never the only way in.
 */
import { createHmac } from 'node:crypto';
import Bowser from 'bowser';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEYS_MAX, type auth as contract } from '@tp/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { isEmbedOrigin } from '../../lib/embed-origins.js';
import { openSession } from './auth.sessions.js';
import type { AuthDeps } from './auth.service.js';
import type { StepUpSession } from './auth.step-up.js';
import { passkeysRepository as repo, type ChallengePurpose, type PasskeyRow } from './passkeys.repository.js';
import { stepUpRepository } from './step-up.repository.js';

/**
 * The challenge's single use (on by default). Off only in a test's control (passkeys.test.ts), which shows that
 * without it a replayed assertion of a passkey that keeps no counter signs in again.
 */
export const passkeyChallengeRule = { singleUse: true };

/** How long a challenge may be answered, seconds (the browser's own timeout is the same). */
export const PASSKEY_CHALLENGE_SECONDS = 120;

type Passkey = z.infer<typeof contract.passkey>;
type TokenPair = { accessToken: string; refreshToken: string };

/** The account's passkey as Settings lists it. */
const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  backedUp: row.backedUp,
});

/** "Chrome · Android" from a User-Agent; "Passkey" when it names neither. */
export function passkeyName(userAgent: string | undefined): string {
  const parsed = userAgent ? Bowser.parse(userAgent) : null;
  const words = [parsed?.browser.name, parsed?.os.name].filter((w): w is string => Boolean(w));
  return words.length > 0 ? words.join(' · ').slice(0, 80) : 'Passkey';
}

/** The challenge and, in a frame of another origin, the top page's origin a response's client data names. */
function clientDataOf(clientDataJSON: string): { challenge: string; topOrigin?: string } | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { challenge, crossOrigin, topOrigin } = data;
    if (typeof challenge !== 'string' || challenge.length > 256) return null;
    // Safari names no top page (as of 2026): then the frame's own rule (CSP frame-ancestors) is what holds.
    return crossOrigin === true && typeof topOrigin === 'string' ? { challenge, topOrigin } : { challenge };
  } catch {
    return null;
  }
}

/**
 * What every passkey route does around the library: keep a challenge, use it once, check an assertion against a stored
 * passkey. `rpID` is PUBLIC_URL's host, `origin` its origin.
 */
function passkeyCeremony(deps: AuthDeps) {
  const { config, now } = deps;
  const db = deps.database.db;
  const publicUrl = new URL(config.publicUrl);
  const rpID = publicUrl.hostname;
  const origin = publicUrl.origin;
  const failed = () => new AppError('api.auth.passkey_failed');

  return {
    rpID,
    origin,
    failed,

    /** Keeps `options.challenge` for `purpose` (and `sessionId`) for PASSKEY_CHALLENGE_SECONDS. */
    async kept<T extends { challenge: string }>(
      options: T,
      purpose: ChallengePurpose,
      sessionId: string | null,
    ): Promise<{ options: T }> {
      const at = now();
      await repo.insertChallenge(db, {
        challenge: options.challenge,
        purpose,
        sessionId,
        expiresAt: new Date(at.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000),
      });
      return { options };
    },

    /**
     * Uses the challenge `clientDataJSON` names, for `purpose` and `sessionId`. A response made in a frame of another
     * origin (the embedded panel) must name its top page, one EMBED_ORIGINS lets frame the panel.
     * @returns the challenge and the top page's origin (when framed), for the library's checks.
     * @throws AppError `api.auth.passkey_failed` when it is unknown, another purpose's or session's, used or expired,
     *   or the top page may not frame the panel.
     */
    async useChallenge(clientDataJSON: string, purpose: ChallengePurpose, sessionId: string | null) {
      const data = clientDataOf(clientDataJSON);
      if (!data) throw failed();
      if (data.topOrigin !== undefined && !isEmbedOrigin(data.topOrigin, config.embedOrigins, origin)) throw failed();
      const used = await repo.useChallenge(
        db,
        data.challenge,
        purpose,
        sessionId,
        now(),
        passkeyChallengeRule.singleUse,
      );
      if (!used) throw failed();
      return data;
    },

    /**
     * Checks an assertion against the stored passkey `row` and records the use (new counter, last used).
     * @throws AppError `api.auth.passkey_failed` for a bad signature, another origin or rpID, a counter that did not
     *   go up, or a parallel use of the same assertion.
     */
    async checkAssertion(
      row: PasskeyRow,
      response: AuthenticationResponseJSON,
      { challenge, topOrigin }: { challenge: string; topOrigin?: string },
    ) {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        ...(topOrigin ? { expectedTopOrigin: topOrigin } : {}),
        credential: {
          id: row.id,
          publicKey: new Uint8Array(row.publicKey),
          counter: row.counter,
          transports: row.transports,
        },
        requireUserVerification: false,
      }).catch(() => null);
      if (!result?.verified) throw failed();
      if (!(await repo.markUsed(db, row.id, result.authenticationInfo.newCounter, now()))) throw failed();
    },

    /** A stable WebAuthn user handle for the account: 16 bytes that name it to us only (no e-mail, no id). */
    userHandle: (userId: number) =>
      new Uint8Array(createHmac('sha256', config.otpPepper).update(`webauthn-user:${userId}`).digest().subarray(0, 16)),
  };
}

/** The passkey half of the auth service. `issueTokens` opens a session's token pair (auth.sessions.ts). */
export function createPasskeys(
  deps: AuthDeps,
  issueTokens: (userId: number, sessionId: string, at: Date) => Promise<TokenPair>,
) {
  const { config, now } = deps;
  const db = deps.database.db;
  const c = passkeyCeremony(deps);

  return {
    /**
     * POST /auth/passkeys/register/options: options for `navigator.credentials.create`, the account's passkeys
     * excluded (one per authenticator), a discoverable credential asked for.
     * @throws AppError `api.auth.passkey_limit` (409) at PASSKEYS_MAX passkeys, `api.unauthorized` (session gone).
     */
    async registrationOptions(session: StepUpSession) {
      const account = await stepUpRepository.lockSession(db, session.sessionId, false);
      if (!account || account.userId !== session.userId) throw new AppError('api.unauthorized');
      const existing = await repo.ofUser(db, session.userId);
      if (existing.length >= PASSKEYS_MAX) throw new AppError('api.auth.passkey_limit');
      const options = await generateRegistrationOptions({
        rpName: config.productName,
        rpID: c.rpID,
        userName: account.email,
        userID: c.userHandle(session.userId),
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      return c.kept(options, 'register', session.sessionId);
    },

    /**
     * POST /auth/passkeys/register: checks the browser's registration for this session's challenge and adds the
     * passkey, named after the browser and system of `userAgent`.
     * @throws AppError `api.auth.passkey_failed` (400) for a response that does not check out or a credential
     *   registered already, `api.auth.passkey_limit` (409).
     */
    async register(session: StepUpSession, response: RegistrationResponseJSON, userAgent?: string): Promise<Passkey> {
      const { challenge } = await c.useChallenge(response.response.clientDataJSON, 'register', session.sessionId);
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: c.origin,
        expectedRPID: c.rpID,
        requireUserVerification: false,
      }).catch(() => null);
      if (!result?.verified) throw c.failed();
      const { credential, credentialBackedUp } = result.registrationInfo;
      const row = {
        id: credential.id,
        userId: session.userId,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        backedUp: credentialBackedUp,
        name: passkeyName(userAgent),
        createdAt: now(),
      };
      const added = await db.transaction(async (tx) => {
        // The session's row lock queues two registrations of one session, so the cap holds.
        await stepUpRepository.lockSession(tx, session.sessionId, true);
        if ((await repo.countOfUser(tx, session.userId)) >= PASSKEYS_MAX) throw new AppError('api.auth.passkey_limit');
        return repo.insert(tx, row);
      });
      if (!added) throw c.failed();
      return toPasskey({ ...row, lastUsedAt: null });
    },

    /** POST /auth/passkeys/sign-in/options: options for `navigator.credentials.get` with no account named. */
    async signInOptions() {
      const options = await generateAuthenticationOptions({
        rpID: c.rpID,
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        userVerification: 'preferred',
      });
      return c.kept(options, 'sign_in', null);
    },

    /**
     * POST /auth/passkeys/sign-in: checks the assertion of a discoverable passkey and opens a session for its account,
     * with its proof of presence (as a verified e-mail code).
     * @throws AppError `api.auth.passkey_failed` (400).
     */
    async signIn(response: AuthenticationResponseJSON): Promise<TokenPair> {
      const clientData = await c.useChallenge(response.response.clientDataJSON, 'sign_in', null);
      const row = await repo.byId(db, response.id);
      if (!row) throw c.failed();
      await c.checkAssertion(row, response, clientData);
      const at = now();
      const sessionId = await openSession(db, row.userId, at, config);
      deps.metrics.signIn('verified');
      return issueTokens(row.userId, sessionId, at);
    },

    /**
     * POST /auth/step-up/passkey/options: options for `navigator.credentials.get` limited to the account's passkeys.
     * @throws AppError `api.auth.passkey_not_found` (404) when the account has none.
     */
    async stepUpOptions(session: StepUpSession) {
      const mine = await repo.ofUser(db, session.userId);
      if (mine.length === 0) throw new AppError('api.auth.passkey_not_found');
      const options = await generateAuthenticationOptions({
        rpID: c.rpID,
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        userVerification: 'preferred',
        allowCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })),
      });
      return c.kept(options, 'step_up', session.sessionId);
    },

    /**
     * POST /auth/step-up/passkey: checks an assertion of one of the session's account's passkeys for this session's
     * challenge; the session is stepped up now (decision 048).
     * @returns until when the proof holds (ISO 8601, UTC).
     * @throws AppError `api.auth.passkey_failed` (400), also for another account's passkey.
     */
    async stepUp(session: StepUpSession, response: AuthenticationResponseJSON) {
      const clientData = await c.useChallenge(response.response.clientDataJSON, 'step_up', session.sessionId);
      const row = await repo.byId(db, response.id);
      if (!row || row.userId !== session.userId) throw c.failed();
      await c.checkAssertion(row, response, clientData);
      const at = now();
      await stepUpRepository.markSteppedUp(db, session.sessionId, at);
      return { steppedUpUntil: new Date(at.getTime() + config.stepUpMaxAgeSeconds * 1000).toISOString() };
    },

    /** GET /auth/passkeys: the account's passkeys, newest first. */
    async list(userId: number): Promise<Passkey[]> {
      return (await repo.ofUser(db, userId)).map(toPasskey);
    },

    /**
     * DELETE /auth/passkeys/{id}: removes one of the account's passkeys (a step-up route: decision 049).
     * @throws AppError `api.auth.passkey_not_found` (404).
     */
    async remove(userId: number, id: string): Promise<void> {
      if (!(await repo.remove(db, userId, id))) throw new AppError('api.auth.passkey_not_found');
    },
  };
}
