/**
 * The global error handler (lib/http.ts): every error body is `{ message: key }`; a 5xx is generic (no stack,
 * no SQL, no cause) and logged with its cause; a client error is not logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error.js';
import { createTestApp, type TestApp } from './helper.js';

// Not a unique violation: those answer 409 (issue 19, break 5); this is a failure the server cannot explain.
const SQL_FAILURE = 'relation users does not exist';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    logs: true,
    routes: (app) => {
      app.get('/test/unknown', () => {
        throw new Error('insert into users failed', {
          cause: Object.assign(new Error(SQL_FAILURE), { code: '42P01' }),
        });
      });
      app.get('/test/deadlock', () => {
        throw new Error('Failed query: insert into "user_tickets" …', {
          cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }),
        });
      });
      app.get('/test/app-error-5xx', () => {
        throw new AppError('gift_tickets.internal_error', {}, {}, { cause: new Error('smtp: 421 try later') });
      });
      app.get('/test/app-error-plain-cause', () => {
        throw new AppError('api.internal_error', {}, {}, { cause: { errno: -110, code: 'ETIMEDOUT' } });
      });
      // A library's error whose message is not text (issue 39, twentieth re-run: the log's serializer threw, and the
      // raw TypeError's text was the answer, logged nowhere).
      app.get('/test/odd-message', (req) => {
        const err = new Error('x');
        Object.assign(err, {
          message: (req.query as { m?: string }).m === 'number' ? 123 : { toString: 1 },
        });
        throw new AppError('api.internal_error', {}, {}, { cause: err });
      });
      // An outside service's long error text, and the answer it keeps beside it (Stripe's `raw`): cut and scrubbed
      // (issue 39, twenty-first re-run: a 100 KB message held the event loop 14 s in the e-mail scrub).
      app.get('/test/long-message', () => {
        const err = Object.assign(new Error(`${'x'.repeat(200_000)} mallory@example.com`), {
          raw: { message: 'card of mallory@example.com declined', type: 'card_error' },
        });
        throw new AppError('api.service_unavailable', {}, {}, { cause: err });
      });
      app.get('/test/cut-address', () => {
        const err = new Error(`${'x '.repeat(1995)}alice@example.com and more`);
        throw new AppError('api.service_unavailable', {}, {}, { cause: err });
      });
      // Shrinking addresses first (each masked to 8 characters), then one that crosses the scanned window's end
      // (4,400 characters): the part inside the window was kept in clear (issue 39, twenty-third re-run).
      app.get('/test/window-end-address', () => {
        const err = new Error(`${'a@example.com '.repeat(300)}${'y '.repeat(95)}alice@example.com and more`);
        throw new AppError('api.service_unavailable', {}, {}, { cause: err });
      });
      // The same with a spaced phone number across the window's end: its first groups were kept (re-run 24).
      app.get('/test/window-end-phone', () => {
        const err = new Error(`${'a@example.com '.repeat(300)}${'y '.repeat(97)}+64 21 555 1234 and more`);
        throw new AppError('api.service_unavailable', {}, {}, { cause: err });
      });
      app.get('/test/odd-message-bare', () => {
        throw Object.assign(new Error('x'), { message: { toString: 1 } });
      });
      app.get('/test/app-error-4xx', () => {
        throw new AppError('api.resell.create.not_resellable', {}, {}, { cause: new Error('row was listed') });
      });
    },
  });
});
afterAll(async () => {
  await t.close();
});

const errorLines = () => t.logs.filter((l) => l.level >= 50);
async function call(url: string, init: { method?: 'GET' | 'POST'; payload?: string; json?: object } = {}) {
  const before = errorLines().length;
  const r = await t.app.inject({
    method: init.method ?? 'GET',
    url,
    ...(init.json ? { payload: init.json } : {}),
    ...(init.payload !== undefined ? { payload: init.payload, headers: { 'content-type': 'application/json' } } : {}),
  });
  return { r, logged: errorLines().slice(before) };
}

describe('global error handler', () => {
  it('answers an unknown error with a generic 500 and logs it with its cause', async () => {
    const { r, logged } = await call('/test/unknown');
    expect(r.statusCode).toBe(500);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toEqual({ message: 'api.internal_error' });
    expect(r.body).not.toMatch(/relation|insert|stack|42P01/);
    expect(logged).toHaveLength(1);
    expect(logged[0].err?.message).toContain('insert into users failed');
    // The cause is logged beside the error (lib/log-privacy.ts), with its code and without row values.
    expect(JSON.stringify(logged[0].err)).toContain(SQL_FAILURE);
    expect(JSON.stringify(logged[0].err)).toContain('42P01');
  });

  it('answers a deadlock (a concurrent write rolled back by PostgreSQL) with 409 api.conflict, not a 500', async () => {
    const { r, logged } = await call('/test/deadlock');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ message: 'api.conflict' });
    expect(logged).toHaveLength(0);
    expect(t.logs.some((l) => l.msg === 'concurrent write rolled back by the database')).toBe(true);
  });

  it('answers an AppError of 500 with its key only and logs its cause', async () => {
    const { r, logged } = await call('/test/app-error-5xx');
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ message: 'gift_tickets.internal_error' });
    expect(r.body).not.toContain('smtp');
    expect(logged).toHaveLength(1);
    expect(logged[0].err).toMatchObject({ type: 'AppError' });
    expect(JSON.stringify(logged[0].err)).toContain('smtp: 421 try later');
  });

  it('logs a cause that is not an Error as it is', async () => {
    const { r, logged } = await call('/test/app-error-plain-cause');
    expect(r.json()).toEqual({ message: 'api.internal_error' });
    expect(logged).toHaveLength(1);
    expect(logged[0].cause).toEqual({ errno: -110, code: 'ETIMEDOUT' });
  });

  it('logs an error whose message is not text (a number, an object with no toString) and answers its key only', async () => {
    for (const url of ['/test/odd-message?m=number', '/test/odd-message', '/test/odd-message-bare']) {
      const { r, logged } = await call(url);
      expect(r.statusCode, url).toBe(500);
      expect(r.json()).toEqual({ message: 'api.internal_error' });
      expect(logged, url).toHaveLength(1);
    }
    expect(JSON.stringify(errorLines().slice(-3))).toContain('[not a string]');
    expect(JSON.stringify(errorLines().slice(-3))).toContain('"message":"123"');
  });

  it("logs an outside service's long error text cut to a few thousand characters, and scrubs what it keeps beside it", async () => {
    const { r, logged } = await call('/test/long-message');
    expect(r.statusCode).toBe(503);
    expect(logged).toHaveLength(1);
    const cause = (logged[0].err as unknown as { cause: { message: string; raw: string } }).cause;
    expect(cause.message.length).toBeLessThan(4100);
    expect(cause.message).toMatch(/…\[200020 characters\]$/);
    expect(cause.raw).toBe('{"message":"card of [email] declined","type":"card_error"}');
    expect(JSON.stringify(logged[0])).not.toContain('mallory@example.com');
  });

  it('masks an address that crosses the cut whole: no part of it is left in clear', async () => {
    const { logged } = await call('/test/cut-address');
    const message = (logged[0].err as unknown as { cause: { message: string } }).cause.message;
    expect(message).not.toMatch(/alice|example/);
    expect(message.length).toBeLessThan(4100);
  });

  it("drops the run that the scanned window's end cuts, so an address there is not left partly in clear", async () => {
    const { logged } = await call('/test/window-end-address');
    const message = (logged[0].err as unknown as { cause: { message: string } }).cause.message;
    expect(message).toContain('[email] y y');
    expect(message).not.toMatch(/alice|example/);
    const phone = (await call('/test/window-end-phone')).logged[0].err as unknown as { cause: { message: string } };
    expect(phone.cause.message).toMatch(/y y…\[\d+ characters\]$/);
    expect(phone.cause.message).not.toMatch(/\+64|21/);
  });

  it('answers an AppError of 4xx with its status and key, without its cause, and does not log it', async () => {
    const { r, logged } = await call('/test/app-error-4xx');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ message: 'api.resell.create.not_resellable' });
    expect(logged).toHaveLength(0);
    const me = await call('/v1/auth/me');
    expect(me.r.statusCode).toBe(401);
    expect(me.r.json()).toEqual({ message: 'api.unauthorized' });
  });

  it('answers a body that fails the schema with 400 api.invalid_request_body and the fields', async () => {
    const { r, logged } = await call('/v1/auth/signInOrRegisterAndSignIn', {
      method: 'POST',
      json: { email: 'not an e-mail' },
    });
    expect(r.statusCode).toBe(400);
    const body = r.json<{ message: string; fields: Record<string, string[]> }>();
    expect(body.message).toBe('api.invalid_request_body');
    expect(body.fields.email.length).toBeGreaterThan(0);
    expect(logged).toHaveLength(0);
    const badJson = await call('/v1/auth/signInOrRegisterAndSignIn', { method: 'POST', payload: '{"email":' });
    expect(badJson.r.statusCode).toBe(400);
    expect(badJson.r.json()).toEqual({ message: 'api.invalid_request_body' });
  });

  it('answers an unknown route with 404 JSON', async () => {
    const { r, logged } = await call('/v1/no/such/route');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toEqual({ message: 'api.not_found' });
    expect(logged).toHaveLength(0);
  });
});
