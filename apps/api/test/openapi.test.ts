/**
 * The API document (issue 28): what it says of every operation (credential, audience tag, operationId, summary,
 * errors, 204s, content types, webhooks), that the helper's conformance hook fails a test on an answer the
 * document does not allow, and the generated typed client (apps/api/client) driving the organiser API.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { auth, webhooks } from '@tp/contract';
import { createApiClient } from '../client/index.js';
import { createTestApp, type TestApp } from './helper.js';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
};

const ADMIN = 'admin-key-for-tests';
const errorFields = Object.keys(auth.errorBody.shape);
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({
    seed: true,
    config: { adminKey: ADMIN },
    routes: (built) => {
      const app = built as unknown as FastifyInstance;
      // Routes that answer what their schema does not say: the conformance hook must refuse them.
      app.get(
        '/v1/test/drift-status',
        { schema: { operationId: 'driftStatus', response: { 200: z.object({ ok: z.boolean() }) } } },
        async (_req, reply) => (reply as unknown as FastifyReply).code(202).send({ ok: true }),
      );
      app.get(
        '/v1/test/drift-type',
        { schema: { operationId: 'driftType', response: { 200: z.object({ ok: z.boolean() }) } } },
        async (_req, reply) => reply.type('text/html').send('<p>ok</p>'),
      );
      app.get(
        '/v1/test/drift-body',
        { schema: { operationId: 'driftBody', response: { 200: z.object({ ok: z.boolean() }) } } },
        // A string is sent as it is (no serializer): JSON the schema does not allow.
        async (_req, reply) => reply.type('application/json').send('{"ok":"yes"}'),
      );
    },
  });
});
afterEach(async () => {
  await t.close();
});

const documentOf = async () => (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<Document>();
const operations = (doc: Document) =>
  Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/v1/test/'))
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe('the API document', () => {
  it('names a credential, an audience, a unique camelCase operationId and a summary for every operation', async () => {
    const doc = await documentOf();
    expect(doc.openapi).toBe('3.1.0');
    const schemes = doc.components.securitySchemes;
    expect(schemes.holderBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.doorKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-scanner-key' });
    expect(schemes.organisationApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.adminKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(60);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.summary, where).toBeTruthy();
      expect(['holder', 'door', 'organiser', 'platform'], where).toContain(op.tags?.[0]);
      expect(op.security, where).toBeDefined();
      for (const requirement of op.security!)
        for (const name of Object.keys(requirement)) expect(schemes).toHaveProperty(name);
      // Every operation documents its server failures, with the one error schema.
      expect(op.responses['503']?.content?.['application/json'], where).toEqual({
        schema: { $ref: '#/components/schemas/Error' },
      });
      if (op.security!.length) expect(op.responses, where).toHaveProperty('401');
      for (const [status, answer] of Object.entries(op.responses)) {
        if (status === '204') expect(answer.content, where).toBeUndefined();
        // Every refusal with the one error schema: a schema of its own strips `fields` and `detail` from the answer
        // (issue 41 point 2 re-walk: the door keys' 400 came without the field at fault).
        // (A media answer's JSON alternative, converted standalone, and the import's refusals: the Error fields and more.)
        const json = answer.content?.['application/json'] as { schema: { $ref?: string; properties?: object } };
        if (/^[45]\d\d$/.test(status) && json) {
          if (json.schema.$ref) expect(json.schema.$ref, `${where} ${status}`).toBe('#/components/schemas/Error');
          else
            expect(Object.keys(json.schema.properties ?? {}), `${where} ${status}`).toEqual(
              expect.arrayContaining(errorFields),
            );
        }
      }
    }
    const op = (path: string, method: string) => doc.paths[path][method];
    // The door key is a credential, not an optional header parameter.
    expect(op('/v1/access/check-in', 'post').security).toEqual([{ doorKey: [] }]);
    expect(JSON.stringify(op('/v1/access/check-in', 'post'))).not.toContain('"in":"header","name":"x-scanner-key"');
    expect(op('/v1/auth/signInOrRegisterAndSignIn', 'post').security).toEqual([]);
    expect(op('/v1/auth/me', 'get').security).toEqual([{ holderBearer: [] }]);
    // The five 204s and the three DELETEs: no content.
    for (const [path, method] of [
      ['/v1/auth/logout', 'get'],
      ['/v1/auth/account', 'delete'],
      ['/v1/resell/unlist', 'post'],
      ['/v1/resell/sandbox-onboarding', 'post'],
      ['/v1/ticket_swap/cancel_swap/{swapIdentifier}', 'post'],
      ['/v1/org/tickets/{externalId}', 'delete'],
      ['/v1/org/webhooks/{id}', 'delete'],
      ['/v1/admin/organisations/{id}/api-keys/{keyId}', 'delete'],
    ])
      expect(op(path, method).responses['204'], `${method} ${path}`).toEqual({ description: 'Done; no content' });
    expect(Object.keys(op('/v1/auth/access/qr', 'get').responses['200'].content!)).toEqual(['text/plain']);
    expect(Object.keys(op('/v1/resell/{ticketId}', 'post').responses['200'].content!)).toEqual(['application/pdf']);
  });

  it('describes the payload and the Standard Webhooks headers of every webhook event', async () => {
    const doc = await documentOf();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhooks.WEBHOOK_EVENT_TYPES].sort());
    for (const type of webhooks.WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      expect(post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(JSON.stringify(post.requestBody)).toContain(`"const":"${type}"`);
    }
  });
});

describe('the conformance hook of the test helper', () => {
  it('fails a test whose answer has an undocumented status, content type or body', async () => {
    await expect(t.app.inject({ method: 'GET', url: '/v1/test/drift-status' })).rejects.toThrow(
      /answered 202: status 202 is not documented/,
    );
    await expect(t.app.inject({ method: 'GET', url: '/v1/test/drift-type' })).rejects.toThrow(
      /content type "text\/html" not in application\/json/,
    );
    await expect(t.app.inject({ method: 'GET', url: '/v1/test/drift-body' })).rejects.toThrow(
      /body does not match the schema: data\/ok must be boolean/,
    );
    // A documented answer passes.
    await expect(t.app.inject({ method: 'GET', url: '/v1/auth/me' })).resolves.toMatchObject({ statusCode: 401 });
  });
});

describe('the typed client generated from the document (apps/api/client)', () => {
  /** openapi-fetch's fetch, answered by app.inject (so the conformance hook checks these answers too). */
  const injectFetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await t.app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers))
      for (const v of ([] as unknown[]).concat(value)) headers.append(name, String(v));
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers,
    });
  };

  it('creates an organisation, an event, a ticket type and a ticket, and reads the attendance', async () => {
    const admin = createApiClient('http://panel.test', {
      fetch: injectFetch,
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const created = await admin.POST('/v1/admin/organisations', { body: { slug: 'typed-co', name: 'Typed Co' } });
    expect(created.response.status).toBe(201);
    const apiKey = created.data!.apiKey;

    const org = createApiClient('http://panel.test', {
      fetch: injectFetch,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const starts = new Date(t.clock.now().getTime() + 10 * 86_400_000);
    const event = await org.PUT('/v1/org/events/{externalId}', {
      params: { path: { externalId: 'evt-typed' } },
      body: {
        name: 'Typed Night',
        venue: 'The Hall',
        city: 'Sydney',
        country: 'AU',
        startsAt: starts.toISOString(),
        endsAt: new Date(starts.getTime() + 3600_000).toISOString(),
        timeZone: 'Australia/Sydney',
      },
    });
    expect(event.data).toEqual({ externalId: 'evt-typed', status: 'created' });
    const type = await org.PUT('/v1/org/ticket-types/{externalId}', {
      params: { path: { externalId: 'ga' } },
      body: {
        eventExternalId: 'evt-typed',
        name: 'General Admission',
        priceCents: 5000,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
      },
    });
    expect(type.response.status).toBe(201);
    const ticket = await org.PUT('/v1/org/tickets/{externalId}', {
      params: { path: { externalId: 'T-1' } },
      body: { ticketTypeExternalId: 'ga', holderEmail: 'typed@example.test' },
    });
    expect(ticket.data?.status).toBe('created');
    const attendance = await org.GET('/v1/org/events/{externalId}/attendance', {
      params: { path: { externalId: 'evt-typed' } },
    });
    expect(attendance.response.status).toBe(200);
    expect(attendance.data).toEqual({
      issued: 1,
      checkedIn: 0,
      listedForResale: 0,
      resold: 0,
      insideByZone: [],
      entriesByDay: [],
    });
    // An error answer is the document's Error body, typed.
    const missing = await org.GET('/v1/org/events/{externalId}/attendance', {
      params: { path: { externalId: 'nope' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.message).toBe('api.org.event_not_found');
    // The CSV import's body is typed (a string sent as text/csv), not `never` (issue 41, point 10).
    const imported = await org.POST('/v1/org/tickets/import', {
      params: { query: { dryRun: 'true' } },
      body: 'externalId,ticketTypeExternalId,holderEmail\nT-2,ga,two@example.test\n',
      bodySerializer: (csv) => csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.response.status).toBe(200);
    const revoked = await org.DELETE('/v1/org/tickets/{externalId}', { params: { path: { externalId: 'T-1' } } });
    expect(revoked.response.status).toBe(204);
  });

  it("uploads a holder's avatar as multipart `file` (issue 41, point 10: the body was typed `never`)", async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const holder = createApiClient('http://panel.test', {
      fetch: injectFetch,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const uploaded = await holder.POST('/v1/auth/avatar', {
      body: { file: 'me.png' },
      bodySerializer: ({ file }) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), file);
        return form;
      },
    });
    expect(uploaded.response.status).toBe(200);
    expect(uploaded.data?.picture).toMatch(/\.webp$/);
  });
});

describe('request bodies, credentials and refusals the document names (issue 41, point 10)', () => {
  it('documents the CSV import and the avatar upload bodies', async () => {
    const doc = await documentOf();
    const body = (path: string) =>
      (doc.paths[path].post as Operation & { requestBody?: { content: Record<string, { schema: unknown }> } })
        .requestBody;
    expect(body('/v1/org/tickets/import')).toMatchObject({
      required: true,
      content: { 'text/csv': { schema: { type: 'string' } } },
    });
    expect(body('/v1/auth/avatar')).toMatchObject({
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
        },
      },
    });
  });

  it('names the ApplePass token on the three Apple web-service operations that take it, and on no other', async () => {
    const doc = await documentOf();
    expect(doc.components.securitySchemes.applePass).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    const withToken = operations(doc)
      .filter(({ op }) => op.security?.some((s) => 'applePass' in s))
      .map(({ op }) => op.operationId)
      .sort();
    expect(withToken).toEqual(['getLatestApplePass', 'registerApplePassDevice', 'unregisterApplePassDevice']);
    const web = operations(doc).filter(({ path }) => path.startsWith('/v1/wallet/apple/v1/'));
    for (const { op } of web.filter(({ op }) => !withToken.includes(op.operationId ?? '')))
      expect(op.security).toEqual([]);
    expect(
      Object.keys(doc.paths['/v1/wallet/apple/v1/passes/{passTypeIdentifier}/{serialNumber}'].get.responses),
    ).toContain('304');
  });

  it('refuses an import body that is not text/csv with 415 naming the type, not "see fields" without fields', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/organisations',
      headers: { authorization: `Bearer ${ADMIN}` },
      payload: { slug: 'csv-co', name: 'CSV Co' },
    });
    const apiKey = created.json<{ apiKey: string }>().apiKey;
    for (const [type, payload] of [
      ['application/json', '{"rows":[]}'],
      ['application/octet-stream', 'externalId\n'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['text/plain', 'externalId\n'],
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/v1/org/tickets/import',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
        payload,
      });
      expect(r.statusCode, type).toBe(415);
      const answer = r.json<{ message: string; detail: string; fields?: unknown }>();
      expect(answer.message, type).toBe('api.org.import.not_csv');
      expect(answer.detail, type).toMatch(/text\/csv/);
      expect(answer.detail, type).not.toMatch(/fields/);
    }
    // Fastify's own refusals on the organiser API no longer point at `fields` they do not send.
    const unreadable = await t.app.inject({
      method: 'PUT',
      url: '/v1/org/events/evt-x',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json<{ fields?: unknown }>().fields).toBeUndefined();
    expect(unreadable.json<{ detail: string }>().detail).not.toMatch(/fields/);
  });
});
