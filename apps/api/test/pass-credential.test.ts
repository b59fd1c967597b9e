/**
 * The offline pass (issue 10, decision 010): the device certificate (POST /v1/auth/access/pass-credential),
 * device codes admitted by the door's check-in and on sync, refused when too old or when the sign-in was revoked,
 * and the public keys a door verifies with (GET /v1/access/pass-keys).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDeviceCode,
  decodeCertificate,
  fromBase64Url,
  toBase64Url,
  verifyPassCode,
} from '@tp/contract/pass-code';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const KEY = 'door-key-for-tests';
const TTL = 30;
let t: TestApp;
let alice: { accessToken: string };
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { scannerKey: KEY, qrTtlSeconds: TTL } });
  alice = await t.signIn('alice@example.com');
});
afterEach(async () => {
  await t.close();
});

/** A device key pair as the panel makes it: WebCrypto Ed25519, private key not extractable. */
async function deviceKeys() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  const pub = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const sign = async (m: Uint8Array) =>
    new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, m as BufferSource));
  return { pub, sign };
}
const credential = (token: string, devicePublicKey: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/access/pass-credential',
    headers: bearer(token),
    payload: { devicePublicKey },
  });
const scan = (code: string, eventId: number) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': KEY },
    payload: { code, eventId },
  });
const eventId = async (name: string) =>
  Number((await rawQuery<{ id: number }>(t.database.db, `select id from events where name = '${name}'`)).rows[0].id);
const stepNow = () => Math.floor(t.clock.now().getTime() / 1000 / TTL);

/** Certifies a fresh device key for alice and returns what the panel keeps. */
async function certified() {
  const device = await deviceKeys();
  const r = await credential(alice.accessToken, toBase64Url(device.pub));
  expect(r.statusCode, r.body).toBe(200);
  const body = r.json<{ certificate: string; expiresAt: string; serverTime: string; ttl: number; skewSteps: number }>();
  const signed = fromBase64Url(body.certificate)!;
  const code = (step: number) => createDeviceCode(signed, step, device.sign);
  return { device, body, signed, code };
}

describe('pass credential', () => {
  it('judges a device code synced from an offline door (the session check does not wait on the sync transaction)', async () => {
    const { code } = await certified();
    const [ticket] = (
      await rawQuery<{ id: number; event_id: number }>(
        t.database.db,
        `select ut.id, tt.event_id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id
         join users u on u.id = ut.holder_id where u.email = 'alice@example.com' and ut.event_access_used_at is null
         and ut.revoked_at is null order by ut.id limit 1`,
      )
    ).rows;
    const item = { id: crypto.randomUUID(), code: await code(stepNow()), scannedAt: t.clock.now().toISOString() };
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': KEY },
      payload: { eventId: Number(ticket.event_id), items: [{ ...item, userTicketIds: [Number(ticket.id)] }] },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ results: [{ id: item.id, admitted: [Number(ticket.id)], conflicts: [] }] });

    // Once the sign-in is revoked (logout), a code of its device synced later is invalid_pass, not already_used.
    const logout = await t.app.inject({ url: '/v1/auth/logout', headers: bearer(alice.accessToken) });
    expect(logout.statusCode).toBeLessThan(300);
    const later = { ...item, id: crypto.randomUUID(), code: await code(stepNow()) };
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/v1/access/sync',
      headers: { 'x-scanner-key': KEY },
      payload: { eventId: Number(ticket.event_id), items: [{ ...later, userTicketIds: [Number(ticket.id)] }] },
    });
    expect(revoked.json()).toEqual({
      results: [
        { id: later.id, admitted: [], conflicts: [{ userTicketId: Number(ticket.id), reason: 'invalid_pass' }] },
      ],
    });
  }, 20_000);

  it('certifies the device key for the holder and this sign-in, for at most 24 h', async () => {
    const { device, body, signed } = await certified();
    expect(signed.length).toBe(120);
    const cert = decodeCertificate(signed.subarray(0, 56))!;
    const [me] = (
      await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'alice@example.com'`)
    ).rows;
    const [session] = (
      await rawQuery<{ id: string }>(
        t.database.db,
        `select id from auth_sessions where user_id = ${Number(me.id)} order by created_at desc limit 1`,
      )
    ).rows;
    expect(cert.userId).toBe(Number(me.id));
    expect(cert.sessionId).toBe(session.id);
    expect(cert.devicePublicKey).toEqual(device.pub);
    expect(new Date(body.expiresAt).getTime()).toBe(cert.expiresAt * 1000);
    const life = cert.expiresAt * 1000 - t.clock.now().getTime();
    expect(life).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(life).toBeGreaterThan(24 * 3600 * 1000 - 1000);
    expect(body.serverTime).toBe(t.clock.now().toISOString());
    expect(body).toMatchObject({ ttl: TTL, skewSteps: 1 });
  });

  it('refuses a malformed key (400) and a request without sign-in (401)', async () => {
    const short = await credential(alice.accessToken, toBase64Url(new Uint8Array(31)));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      message: 'api.invalid_request_body',
      fields: { devicePublicKey: ['api.access.invalid_device_key'] },
    });
    const anon = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/access/pass-credential',
      payload: { devicePublicKey: toBase64Url(new Uint8Array(32)) },
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('device codes at the door', () => {
  it('admits a device code computed offline for the current step', async () => {
    const { code } = await certified();
    t.clock.advance(5 * 60_000); // the phone went offline; codes keep coming from the device
    const r = await scan(await code(stepNow()), await eventId('Aotearoa Sound'));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<{ admitted: { ticketName: string }[] }>().admitted.map((x) => x.ticketName)).toEqual([
      'General Admission',
    ]);
  });

  it('refuses a 3-step-old code (a screenshot) and one from 2 steps ahead, admits within the skew window', async () => {
    const { code } = await certified();
    const event = await eventId('Aotearoa Sound');
    for (const old of [stepNow() - 3, stepNow() + 2]) {
      const r = await scan(await code(old), event);
      expect(r.statusCode, String(old)).toBe(400);
      expect(r.json()).toEqual({ message: 'api.access.invalid_code' });
    }
    expect((await scan(await code(stepNow() - 2), event)).statusCode).toBe(200);
  });

  it('refuses the device code of a sign-in revoked by logout, online', async () => {
    const { code } = await certified();
    const event = await eventId('Aotearoa Sound');
    const logout = await t.app.inject({ url: '/v1/auth/logout', headers: bearer(alice.accessToken) });
    expect(logout.statusCode).toBeLessThan(300);
    const r = await scan(await code(stepNow()), event);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ message: 'api.access.invalid_code' });
    // The signature itself is still valid: only an online door can know (decision 010).
    const keys = await t.app.inject({ url: '/v1/access/pass-keys', headers: { 'x-scanner-key': KEY } });
    const publicKey = keys.json<{ publicKeys: string[] }>().publicKeys.map((k) => fromBase64Url(k)!);
    const offline = await verifyPassCode(await code(stepNow()), {
      publicKey,
      nowSeconds: Math.floor(t.clock.now().getTime() / 1000),
      ttlSeconds: TTL,
    });
    expect(offline).toMatchObject({ kind: 'device' });
  });

  it('refuses a code whose certificate has expired', async () => {
    const { code } = await certified();
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const r = await scan(await code(stepNow()), await eventId('Aotearoa Sound'));
    expect(r.statusCode).toBe(400);
  });
});

describe('pass keys', () => {
  it('serves the public key (scanner key only) that verifies the online QR code', async () => {
    expect((await t.app.inject({ url: '/v1/access/pass-keys' })).statusCode).toBe(401);
    const r = await t.app.inject({ url: '/v1/access/pass-keys', headers: { 'x-scanner-key': KEY } });
    expect(r.statusCode).toBe(200);
    const keys = r.json<{ publicKeys: string[]; ttl: number; skewSteps: number }>();
    expect(keys).toMatchObject({ ttl: TTL, skewSteps: 1 });
    const serverCode = await t.app.services.access.codeFor(7, stepNow());
    const v = await verifyPassCode(serverCode, {
      publicKey: keys.publicKeys.map((k) => fromBase64Url(k)!),
      nowSeconds: Math.floor(t.clock.now().getTime() / 1000),
      ttlSeconds: TTL,
    });
    expect(v).toEqual({ userId: 7, step: stepNow(), kind: 'server' });
  });

  it('is the same key on every instance sharing JWT_SECRET, and PASS_SIGNING_KEY overrides it', () => {
    const env = { JWT_SECRET: 'shared-secret', DATA_DIR: '/nonexistent-not-used' };
    const a = loadConfig(env);
    const b = loadConfig({ ...env });
    expect(a.passSigningKey).toEqual(b.passSigningKey);
    expect(loadConfig({ JWT_SECRET: 'other' }).passSigningKey).not.toEqual(a.passSigningKey);
    const own = toBase64Url(new Uint8Array(32).fill(7));
    expect(loadConfig({ ...env, PASS_SIGNING_KEY: own }).passSigningKey).toEqual(new Uint8Array(32).fill(7));
    expect(() => loadConfig({ ...env, PASS_SIGNING_KEY: 'short' })).toThrow(/PASS_SIGNING_KEY/);
  });
});
