/**
 * Request ids and private logs (issue 25, decision 031): every answer names its request id in `x-request-id`; the id
 * is a proxy's only under TRUST_PROXY and only when sane; every line of the request's logger carries it (after body
 * parsing and awaits alike; the Stripe event service's line: resale-stripe-money.test.ts); and a journey that
 * handles e-mails, names and phone numbers (sign-in, profile, a gift to an e-mail, a resale, an organiser import)
 * with every mail failing, so that each failure is logged with an SMTP error quoting its recipient, writes none of
 * them into any log line.
 */
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ADMIN = 'admin-key-for-tests';
let t: TestApp;
afterEach(async () => {
  await t.close();
});

describe('request ids', () => {
  it('answers a fresh UUID per request and ignores a client x-request-id without TRUST_PROXY', async () => {
    t = await createTestApp();
    const a = await t.app.inject({ url: '/healthz' });
    const b = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'chosen-by-client' } });
    const missing = await t.app.inject({ url: '/v1/nothing-here' });
    for (const r of [a, b, missing]) expect(r.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it("takes a trusted proxy's sane x-request-id, and a UUID for an unsafe or overlong one", async () => {
    t = await createTestApp({ config: { trustProxy: 1 } });
    const given = (id: string) => t.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
    expect((await given('lb-7f3a:0001.req_9')).headers['x-request-id']).toBe('lb-7f3a:0001.req_9');
    expect((await given('a'.repeat(128))).headers['x-request-id']).toBe('a'.repeat(128));
    for (const bad of ['a'.repeat(129), 'has space', 'x"}{"admin":true', '<script>', 'é'])
      expect((await given(bad)).headers['x-request-id']).toMatch(UUID);
  });

  it("puts the request id on every line of the request's logger, after a body and an await", async () => {
    t = await createTestApp({
      logs: 'debug',
      routes: (app) => {
        app.post('/test/log', async (req) => {
          req.log.warn('from the request logger');
          await new Promise((resolve) => setTimeout(resolve, 5));
          req.log.warn('from the request logger, after a body and an await');
          return {};
        });
        app.get('/test/fail', () => {
          throw new Error('boom');
        });
      },
    });
    const posted = await t.app.inject({ method: 'POST', url: '/test/log', payload: { any: 'body' } });
    const failed = await t.app.inject({ url: '/test/fail' });
    expect(failed.statusCode).toBe(500);
    const byMsg = (msg: string) => t.logs.find((l) => l.msg === msg);
    expect(byMsg('from the request logger')?.reqId).toBe(posted.headers['x-request-id']);
    expect(byMsg('from the request logger, after a body and an await')?.reqId).toBe(posted.headers['x-request-id']);
    expect(byMsg('request failed')?.reqId).toBe(failed.headers['x-request-id']);
    // Outside a request: no id.
    t.app.log.warn('between requests');
    expect(byMsg('between requests')).not.toHaveProperty('reqId');
  });
});

describe('no e-mail, phone number or name in any log line', () => {
  it('holds through sign-in, profile, a gift to an e-mail, a resale and an organiser import, every mail failing', async () => {
    t = await createTestApp({ seed: true, logs: 'debug', config: { adminKey: ADMIN } });
    const alice = (await t.signIn('alice@example.com')).accessToken;
    // From here every mail fails with what an SMTP server answers: the recipient quoted in the error.
    t.mail.send = (m) => Promise.reject(new Error(`550 5.1.1 <${m.to}>: Recipient address rejected`));
    const post = (url: string, payload: object, token = alice) =>
      t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

    // Profile: names and a phone number.
    const profile = await post('/v1/auth/profile', {
      givenName: 'Perpetua',
      familyName: 'Quennell',
      phoneNumber: '+61 412 345 678',
    });
    expect(profile.statusCode, profile.body).toBe(200);

    // A gift to an e-mail that has no account yet (its mail fails and is logged).
    const tickets = (
      await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(alice) })
    ).json<MyTicket[]>();
    const giftable = tickets.find((x) => x.eventName === 'Aotearoa Sound')!;
    const gifted = await post('/v1/mobile/giftTicket', {
      userTicketId: giftable.userTicketId,
      username: 'wilhelmina.gift@example.com',
    });
    expect(gifted.statusCode, gifted.body).toBe(200);

    // A resale listing, bought through the public pages by an e-mail (its code mail fails three times).
    const onboarded = await post('/v1/resell/sandbox-onboarding', {
      country: 'AU',
      firstName: 'Perpetua',
      lastName: 'Quennell',
      birthdate: '1990-01-02',
      bankAccount: '062-000 12345678',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(204);
    type Available = { userTicketId: number; currencyCode: string; currencySymbol: string };
    const [resellable] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(alice) })).json<
      Available[]
    >();
    const listed = await post('/v1/resell', {
      userTicketId: resellable.userTicketId,
      amountCount: 1,
      price: 50,
      currencyCode: resellable.currencyCode,
      currencySymbol: resellable.currencySymbol,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const form = (url: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const started = await form(new URL(listed.json<{ shareLinkUrl: string }>().shareLinkUrl).pathname, {
      quantity: '1',
      email: 'bartholomew.buyer@example.com',
      idempotencyKey: crypto.randomUUID(),
    });
    expect(started.statusCode, started.body).toBe(303);
    expect((await form(new URL(started.headers.location as string).pathname, {})).statusCode).toBe(200);

    // An organiser import of tickets for e-mails (their mails go out in the background and fail).
    const org = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'acme', name: 'Acme Live' },
    });
    const apiKey = org.json<{ apiKey: string }>().apiKey;
    const at = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
    const put = (path: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(apiKey), payload });
    const day = 86_400_000;
    const event = {
      ...{ name: 'Harbour Lights', venue: 'The Domain', city: 'Sydney', country: 'AU' },
      ...{ startsAt: at(10 * day), endsAt: at(10 * day + 8 * 3600_000), timeZone: 'Australia/Sydney' },
    };
    expect((await put('events/evt-1', event)).statusCode).toBe(201);
    const type = {
      ...{ eventExternalId: 'evt-1', name: 'General Admission', priceCents: 8900, currency: 'AUD' },
      ...{ isGiftable: true, isResellable: true, isSwappable: false },
    };
    expect((await put('ticket-types/ga', type)).statusCode).toBe(201);
    const imported = await t.app.inject({
      method: 'POST',
      url: '/v1/org/tickets/import',
      headers: { ...bearer(apiKey), 'content-type': 'text/csv' },
      payload: 'externalId,ticketTypeExternalId,holderEmail\nt1,ga,ignatius.import@example.com\n',
    });
    expect(imported.statusCode, imported.body).toBe(200);
    await t.app.services.jobs.runDue();

    const personal = [
      'alice@example.com',
      'wilhelmina.gift@example.com',
      'bartholomew.buyer@example.com',
      'ignatius.import@example.com',
      'Perpetua',
      'Quennell',
      'Alice Nguyen',
      '412 345 678',
      '61412345678',
    ];
    // The journey's failures were logged (so the check below has lines to look at), each with its request id.
    const failures = t.logs.filter((l) => l.level >= 40);
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures.some((l) => String(l.err?.message).includes('550 5.1.1'))).toBe(true);
    for (const line of t.logs) {
      const text = JSON.stringify(line);
      for (const value of personal) expect(text, `a log line names ${value}`).not.toContain(value);
    }
    // Mails are jobs (decision 030), sent by the worker outside any request: their failures name the job.
    const mailFailures = t.logs.filter((l) => String(l.msg).startsWith('job failed') && l.kind === 'mail');
    expect(mailFailures.length).toBeGreaterThanOrEqual(3);
    for (const l of mailFailures) expect(l.jobId).toEqual(expect.any(Number));
  });
});

describe('the access log (issue 41, point 8)', () => {
  it('writes one line per request: reqId, method, route pattern, status and time, never the query or path values', async () => {
    t = await createTestApp({ logs: 'debug' });
    const answers = [
      await t.app.inject({ url: '/healthz?token=secret-in-query' }),
      await t.app.inject({ url: '/v1/org/events/evt-4242/attendance?code=123456', headers: bearer('not-a-token') }),
      await t.app.inject({ url: '/v1/nothing-here?x=secret-in-query' }),
    ];
    const lines = t.logs.filter((l) => l.msg === 'request completed');
    expect(lines).toHaveLength(3);
    for (const [i, expected] of [
      { method: 'GET', route: '/healthz', statusCode: 200 },
      { method: 'GET', route: '/v1/org/events/:externalId/attendance', statusCode: 401 },
      { method: 'GET', route: 'unmatched', statusCode: 404 },
    ].entries()) {
      expect(lines[i]).toMatchObject({ ...expected, level: 30, reqId: answers[i].headers['x-request-id'] });
      expect(typeof lines[i].ms).toBe('number');
    }
    const all = JSON.stringify(t.logs);
    for (const secret of ['secret-in-query', '123456', 'evt-4242', 'not-a-token']) expect(all).not.toContain(secret);
  });

  it('logs a client that went away as one info line with its route, not as an error', async () => {
    t = await createTestApp({
      logs: 'debug',
      routes: (app) => {
        // What reading a body cut short by the client rejects with (Node's IncomingMessage).
        app.get('/test/aborted', () => {
          throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
        });
      },
    });
    await t.app.inject({ url: '/test/aborted' });
    // A real socket: a JSON body announced at 1,000 bytes, cut after a few, then the connection closed.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(
      'PUT /v1/org/events/evt-1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await expect
      .poll(() => t.logs.filter((l) => l.msg === 'request aborted by the client').map((l) => l.route))
      .toEqual(['/test/aborted', '/v1/org/events/:externalId']);
    for (const line of t.logs.filter((l) => l.msg === 'request aborted by the client'))
      expect(line).toMatchObject({ level: 30, reqId: expect.any(String) as unknown });
    expect(t.logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
