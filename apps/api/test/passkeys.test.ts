/**
 * Passkeys (issue 47, decision 049), through the real routes with a software authenticator's real signatures
 * (passkey-authenticator.ts): register after a sign-in, sign in with the passkey, step up with it, list and remove
 * it; and every way an answer can be wrong (replayed, raced, another origin or rpID, a used or expired challenge, a
 * cloned counter, a bad signature, another account's passkey or session) refused with `api.auth.passkey_failed`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passkeyChallengeRule } from '../src/modules/auth/auth.passkeys.js';
import type { auth } from '@tp/contract';
import type { z } from 'zod';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';
import { testAuthenticator, type Tamper, type TestPasskey } from './passkey-authenticator.js';

type CreationOptions = z.infer<typeof auth.passkeyCreationOptions>;
type RequestOptions = z.infer<typeof auth.passkeyRequestOptions>;
type Passkey = z.infer<typeof auth.passkey>;

const MINUTE = 60_000;
let t: TestApp;
let device: ReturnType<typeof testAuthenticator>;
beforeEach(async () => {
  // Organisers' pages may frame the panel (EMBED_ORIGINS): any subdomain of organiser.example.
  t = await createTestApp({ seed: true, config: { embedOrigins: ["'self'", 'https://*.organiser.example'] } });
  device = testAuthenticator(t.config.publicUrl);
});
afterEach(async () => {
  passkeyChallengeRule.singleUse = true;
  await t.close();
});

const post = (url: string, token: string | null, payload?: object) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

/** Registers a new passkey of `token`'s account (tampered as asked); the answer and the passkey. */
async function register(token: string, tamper: Tamper = {}) {
  const asked = await post('/v1/auth/passkeys/register/options', token);
  expect(asked.statusCode, asked.body).toBe(200);
  const { options } = asked.json<{ options: CreationOptions }>();
  const made = device.register(options, tamper);
  const answer = await post('/v1/auth/passkeys/register', token, { response: made.response });
  return { answer, passkey: made.passkey, options };
}

/** Options for a passkey sign-in. */
async function signInOptions(): Promise<RequestOptions> {
  const r = await post('/v1/auth/passkeys/sign-in/options', null);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ options: RequestOptions }>().options;
}

/** Signs in with `passkey` (its counter moved on as an authenticator's would), tampered as asked. */
async function signInWith(passkey: TestPasskey, tamper: Tamper = {}) {
  const response = device.assert(passkey, await signInOptions(), tamper);
  return post('/v1/auth/passkeys/sign-in', null, { response });
}

const messageOf = (r: { body: string }) => (JSON.parse(r.body) as { message?: string }).message;
const list = async (token: string) =>
  (await t.app.inject({ url: '/v1/auth/passkeys', headers: bearer(token) })).json<Passkey[]>();

describe('passkeys: register, sign in, step up, list, remove', () => {
  it('a passkey registered after an e-mail sign-in signs the holder in without a code, with a fresh proof', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const { answer, passkey, options } = await register(accessToken);
    expect(answer.statusCode, answer.body).toBe(201);
    // The relying party is the panel's own origin; the account's e-mail names the passkey in the browser's list.
    expect(options.rp.id).toBe('panel.test');
    expect(options.user.name).toBe('alice@example.com');
    expect(options.authenticatorSelection?.residentKey).toBe('required');
    const added = answer.json<Passkey>();
    expect(added).toMatchObject({ id: passkey.id, lastUsedAt: null });
    expect(await list(accessToken)).toEqual([added]);

    const mailsBefore = t.mail.sent.length;
    t.clock.advance(10 * MINUTE);
    passkey.counter = 1;
    const signedIn = await signInWith(passkey);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(t.mail.sent.length).toBe(mailsBefore); // no e-mail
    expect(signedIn.headers['set-cookie']).toContain('tp_refresh=');
    const token = signedIn.json<{ accessToken: string }>().accessToken;
    const me = await t.app.inject({ url: '/v1/auth/me', headers: bearer(token) });
    expect(me.json<{ email: string }>().email).toBe('alice@example.com');
    // The passkey sign-in is a proof of presence: a step-up route passes at once.
    expect((await post('/v1/auth/logout-others', token)).statusCode).toBe(200);
    expect((await list(token))[0].lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('steps up a session past 5 minutes; another account’s passkey does not', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const { passkey } = await register(alice);
    const bob = (await t.signIn('bob@example.com')).accessToken;
    t.clock.advance(6 * MINUTE);
    expect(messageOf(await post('/v1/auth/logout-others', alice))).toBe('api.auth.step_up_required');

    // Bob has no passkey: nothing to ask with; alice's passkey on bob's session is refused.
    expect(messageOf(await post('/v1/auth/step-up/passkey/options', bob))).toBe('api.auth.passkey_not_found');
    const bobsChallenge = await post('/v1/auth/step-up/passkey/options', alice);
    const aliceOptions = bobsChallenge.json<{ options: RequestOptions }>().options;
    expect(aliceOptions.allowCredentials?.map((c) => c.id)).toEqual([passkey.id]);
    passkey.counter = 1;
    const onBob = await post('/v1/auth/step-up/passkey', bob, { response: device.assert(passkey, aliceOptions) });
    expect(messageOf(onBob)).toBe('api.auth.passkey_failed');

    const options = (await post('/v1/auth/step-up/passkey/options', alice)).json<{ options: RequestOptions }>().options;
    passkey.counter = 2;
    const stepped = await post('/v1/auth/step-up/passkey', alice, { response: device.assert(passkey, options) });
    expect(stepped.statusCode, stepped.body).toBe(200);
    expect(stepped.json<{ steppedUpUntil: string }>().steppedUpUntil).toBe(
      new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString(),
    );
    expect((await post('/v1/auth/logout-others', alice)).statusCode).toBe(200);
  });

  it('adding and removing a passkey want a fresh proof; removed, it signs in no more (the e-mail code still does)', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const { passkey } = await register(accessToken);
    const other = await register(accessToken);
    expect((await list(accessToken)).map((p) => p.id).sort()).toEqual([passkey.id, other.passkey.id].sort());
    t.clock.advance(6 * MINUTE);
    expect(messageOf(await post('/v1/auth/passkeys/register/options', accessToken))).toBe('api.auth.step_up_required');
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/v1/auth/passkeys/${id}`, headers: bearer(accessToken) });
    expect(messageOf(await remove(passkey.id))).toBe('api.auth.step_up_required');

    // Stepped up with the other passkey.
    const options = (await post('/v1/auth/step-up/passkey/options', accessToken)).json<{ options: RequestOptions }>()
      .options;
    other.passkey.counter = 1;
    const response = device.assert(other.passkey, options);
    expect((await post('/v1/auth/step-up/passkey', accessToken, { response })).statusCode).toBe(200);
    expect((await remove(passkey.id)).statusCode).toBe(204);
    expect(messageOf(await remove(passkey.id))).toBe('api.auth.passkey_not_found');
    // Bob cannot remove alice's other passkey.
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const bobRemoves = await t.app.inject({
      method: 'DELETE',
      url: `/v1/auth/passkeys/${other.passkey.id}`,
      headers: bearer(bob),
    });
    expect(messageOf(bobRemoves)).toBe('api.auth.passkey_not_found');
    expect((await list(accessToken)).map((p) => p.id)).toEqual([other.passkey.id]);

    passkey.counter = 5;
    expect(messageOf(await signInWith(passkey))).toBe('api.auth.passkey_failed');
    await t.signIn('alice@example.com'); // the e-mail code always works
  });

  it("the account's export lists its passkeys (never a key); deleting the account deletes them", async () => {
    const { accessToken } = await t.signIn('dana@example.com');
    const { passkey, answer } = await register(accessToken);
    const exported = await t.app.inject({ url: '/v1/auth/export', headers: bearer(accessToken) });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<{ passkeys: unknown[] }>().passkeys).toEqual([answer.json<Passkey>()]);
    expect(exported.body).not.toContain(Buffer.from(passkey.cosePublicKey).toString('base64'));
    const deleted = await t.app.inject({ method: 'DELETE', url: '/v1/auth/account', headers: bearer(accessToken) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const left = await rawQuery<{ n: number }>(t.database.db, 'select count(*)::int as n from webauthn_credentials');
    expect(left.rows[0].n).toBe(0);
    passkey.counter = 1;
    expect(messageOf(await signInWith(passkey))).toBe('api.auth.passkey_failed');
  });

  it('holds at most PASSKEYS_MAX (20) passkeys', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    for (let i = 0; i < 20; i++) expect((await register(accessToken)).answer.statusCode).toBe(201);
    expect(messageOf(await post('/v1/auth/passkeys/register/options', accessToken))).toBe('api.auth.passkey_limit');
  });
});

describe('passkeys: limits per account', () => {
  it('an account’s ceremonies count together per account (PASSKEYS_PER_USER_PER_MINUTE), from any address; another account is not held', async () => {
    await t.close();
    t = await createTestApp({ seed: true, config: { passkeysPerUserPerMinute: 3 } });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const from = (ip: string, url: string, token: string) =>
      t.app.inject({ method: 'POST', url, headers: bearer(token), remoteAddress: ip });
    const asked = [];
    for (const [i, url] of [
      '/v1/auth/passkeys/register/options',
      '/v1/auth/step-up/passkey/options',
      '/v1/auth/passkeys/register/options',
      '/v1/auth/passkeys/register/options',
    ].entries())
      asked.push(await from(`10.0.0.${i + 1}`, url, alice));
    expect(asked.map((r) => r.statusCode)).toEqual([200, 404, 200, 429]);
    expect(messageOf(asked[3])).toBe('api.too_many_requests');
    expect(Number(asked[3].headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.0.0.1', '/v1/auth/passkeys/register/options', bob)).statusCode).toBe(200);
  });
});

describe('passkeys: answers that do not check out', () => {
  let passkey: TestPasskey;
  beforeEach(async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    passkey = (await register(accessToken)).passkey;
    passkey.counter = 10;
    expect((await signInWith(passkey)).statusCode).toBe(200);
  });

  it.each<[string, Tamper]>([
    ['another origin (a phishing page)', { origin: 'https://panel.test.evil.example' }],
    ['another rpID', { rpId: 'evil.example' }],
    ['a registration answer used to sign in', { type: 'webauthn.create' }],
    ['a bad signature', { badSignature: true }],
    ['a challenge the server never gave', { challenge: 'bm90LWEtY2hhbGxlbmdl' }],
    ['a cloned authenticator (the counter went back)', { counter: 3 }],
    ['the same counter again', { counter: 10 }],
    ['a frame on a page that may not frame the panel', { topOrigin: 'https://evil.example' }],
  ])('refuses %s', async (_, tamper) => {
    passkey.counter = 11;
    const r = await signInWith(passkey, tamper);
    expect(r.statusCode).toBe(400);
    expect(messageOf(r)).toBe('api.auth.passkey_failed');
  });

  // A synced passkey keeps no counter (always 0): only the challenge's single use stops a replay of its assertion.
  const replays = async () => {
    const synced = (await register((await t.signIn('carol@example.com')).accessToken)).passkey;
    const response = device.assert(synced, await signInOptions());
    const first = await post('/v1/auth/passkeys/sign-in', null, { response });
    expect(first.statusCode, first.body).toBe(200);
    const again = await post('/v1/auth/passkeys/sign-in', null, { response });
    const copy = device.assert(synced, await signInOptions());
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('/v1/auth/passkeys/sign-in', null, { response: copy })),
    );
    return { again: again.statusCode, copies: answers.map((a) => a.statusCode).sort() };
  };

  it('refuses a replayed assertion, and all but one of ten copies sent at once', async () => {
    expect(await replays()).toEqual({ again: 400, copies: [200, ...Array<number>(9).fill(400)] });
    // With a counter, a replay is refused by the counter too.
    passkey.counter = 11;
    const response = device.assert(passkey, await signInOptions());
    expect((await post('/v1/auth/passkeys/sign-in', null, { response })).statusCode).toBe(200);
    expect(messageOf(await post('/v1/auth/passkeys/sign-in', null, { response }))).toBe('api.auth.passkey_failed');
  });

  it('control: without the challenge’s single use the replays sign in', async () => {
    passkeyChallengeRule.singleUse = false;
    const { again, copies } = await replays();
    expect(again).toBe(200);
    expect(copies.filter((s) => s === 200).length).toBeGreaterThan(1);
  });

  it('takes a passkey used in the panel framed by a page EMBED_ORIGINS allows', async () => {
    passkey.counter = 11;
    const r = await signInWith(passkey, { topOrigin: 'https://shop.organiser.example' });
    expect(r.statusCode, r.body).toBe(200);
  });

  it('refuses a challenge older than 2 minutes', async () => {
    const options = await signInOptions();
    t.clock.advance(2 * MINUTE + 1000);
    passkey.counter = 11;
    const r = await post('/v1/auth/passkeys/sign-in', null, { response: device.assert(passkey, options) });
    expect(messageOf(r)).toBe('api.auth.passkey_failed');
  });

  it('refuses a registration for another session’s challenge, another origin, or a passkey registered already', async () => {
    const alice = (await t.signIn('alice@example.com')).accessToken;
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const { options } = (await post('/v1/auth/passkeys/register/options', alice)).json<{ options: CreationOptions }>();
    const onBob = await post('/v1/auth/passkeys/register', bob, { response: device.register(options).response });
    expect(messageOf(onBob)).toBe('api.auth.passkey_failed');
    expect(messageOf((await register(alice, { origin: 'https://evil.example' })).answer)).toBe(
      'api.auth.passkey_failed',
    );
    // The same credential id again (an authenticator that ignored excludeCredentials).
    const again = (await post('/v1/auth/passkeys/register/options', alice)).json<{ options: CreationOptions }>();
    const dup = device.register(again.options, {}, passkey).response;
    expect(messageOf(await post('/v1/auth/passkeys/register', alice, { response: dup }))).toBe(
      'api.auth.passkey_failed',
    );
    expect(
      (await rawQuery<{ n: number }>(t.database.db, 'select count(*)::int as n from webauthn_credentials')).rows[0].n,
    ).toBe(1);
  });

  it('answers 400, never 500, to answers that are not WebAuthn at all', async () => {
    for (const response of [
      {
        id: 'AA',
        rawId: 'AA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
      },
      {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: { clientDataJSON: '', authenticatorData: '', signature: '' },
      },
      {
        id: passkey.id,
        rawId: 'x',
        type: 'public-key',
        response: { clientDataJSON: 'not base64!', authenticatorData: 'AA', signature: 'AA' },
      },
    ]) {
      const r = await post('/v1/auth/passkeys/sign-in', null, { response });
      expect(r.statusCode, r.body).toBe(400);
    }
  });
});
