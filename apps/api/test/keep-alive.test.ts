/**
 * Issue 41 point 1: an early refusal must leave the client's keep-alive connection usable. The server answers
 * some requests before it has read their body (an import with too many rows, a wrong content type, a missing or
 * wrong key); if it then keeps the connection open without reading the rest, the client's next request on that
 * connection is never answered. Each case sends the refused request and then `GET /healthz` through an agent with
 * one keep-alive socket: the second answer must come (on the same socket once the rest was read, or on a new one
 * after the server closed the first).
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { organisations } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let agent: Agent;
let base: string;

beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN }, runJobs: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
});
afterEach(async () => {
  agent.destroy();
  await t.close();
});

/**
 * One request through the one-socket agent; rejects when no answer came within `ms`. A connection the server left
 * unread never answers: the bound only has to end the wait, so it is generous (5 s was passed on PostgreSQL by a
 * 50,001-row refusal on a CI machine running both test lanes at once).
 */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  ms = 30_000,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.setTimeout(ms, () => req.destroy(new Error(`no answer to ${method} ${path} within ${ms} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

const csv = (rows: number) =>
  Buffer.from(
    ['externalId,ticketTypeExternalId,holderEmail']
      .concat(Array.from({ length: rows }, (_, i) => `t-${i},ga,fan${i}@example.com`))
      .join('\n'),
  );

it('after each early refusal, the next request on the keep-alive connection is answered', async () => {
  const org = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: bearer(ADMIN),
      payload: { slug: 'keep', name: 'Keep Org' },
    })
  ).json<{ apiKey: string }>();
  const big = csv(organisations.IMPORT_MAX_ROWS + 1);
  const cases: { name: string; status: number; headers: Record<string, string>; body: Buffer; path?: string }[] = [
    {
      name: 'too many rows',
      status: 413,
      headers: { ...bearer(org.apiKey), 'content-type': 'text/csv' },
      body: big,
      path: '/v1/org/tickets/import?dryRun=true',
    },
    {
      name: 'wrong content type',
      status: 415,
      headers: { ...bearer(org.apiKey), 'content-type': 'application/octet-stream' },
      body: big,
    },
    { name: 'no key', status: 401, headers: { 'content-type': 'text/csv' }, body: big },
    { name: 'wrong key', status: 401, headers: { ...bearer('tp_wrong'), 'content-type': 'text/csv' }, body: big },
    {
      name: 'body too large',
      status: 413,
      headers: { ...bearer(org.apiKey), 'content-type': 'text/csv' },
      body: Buffer.concat([csv(1), Buffer.alloc(organisations.IMPORT_MAX_BYTES + 1024, 0x41)]),
    },
  ];
  for (const c of cases) {
    const refused = await send('POST', c.path ?? '/v1/org/tickets/import', c.headers, c.body);
    expect(refused.status, c.name).toBe(c.status);
    const next = await send('GET', '/healthz', {});
    expect(next.status, `${c.name}: the next request on the connection`).toBe(200);
  }
}, 300_000);
