/** Health, config, OpenAPI, pending calls, profile and error shape. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, type PanelConfig } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(async () => {
  await t.close();
});

describe('system', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('lists every path of the spec call table in OpenAPI', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{ openapi: string; paths: object }>();
    expect(doc.openapi).toMatch(/^3\./);
    for (const [method, path] of CALLS) {
      expect(doc.paths, `${method} ${path}`).toHaveProperty([`/v1${path}`, method.toLowerCase()]);
    }
  });

  it('builds every call of the spec table', () => {
    for (const [method, path] of CALLS) {
      expect(t.app.hasRoute({ method, url: `/v1${path.replace(/\{(\w+)\}/g, ':$1')}` }), `${method} ${path}`).toBe(
        true,
      );
    }
  });

  it('answers unknown paths with 404 and a key', async () => {
    const r = await t.app.inject({ url: '/v1/nope' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ message: 'api.not_found' });
  });

  it('gives the organisation config with the product fallbacks', async () => {
    const cfg = (await t.app.inject({ url: '/v1/config' })).json<PanelConfig>();
    expect(cfg).toMatchObject({ orgName: 'Southern Lights Live', productName: 'Ticket Panel', isDev: true });
  });

  it('serves the demo host page with the embed loader', async () => {
    const r = await t.app.inject({ url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('/embed.js');
  });

  it('leaves the loader out of the demo host page with ?noembed=1 (benchmark baseline)', async () => {
    const r = await t.app.inject({ url: '/?noembed=1' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<main');
    expect(r.body).not.toContain('/embed.js');
    expect(r.body).not.toContain('TicketPanel');
  });

  it('keeps only the loader and its open buttons with ?inline=0 (the Lighthouse page of the benchmark)', async () => {
    const full = await t.app.inject({ url: '/' });
    expect(full.body).toContain('id="ticket-panel-inline"');
    expect(full.body).toContain('/demo-host.js');
    const r = await t.app.inject({ url: '/?inline=0' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('/embed.js');
    expect(r.body).toContain('data-ticket-panel-open');
    expect(r.body).not.toContain('id="ticket-panel-inline"');
    expect(r.body).not.toContain('/demo-host.js');
  });

  it('serves seeded images', async () => {
    const r = await t.app.inject({ url: '/public/images/harbour-lights.svg' });
    expect(r.statusCode).toBe(200);
  });

  it('lists dev mail while no SMTP server is configured', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signInOrRegisterAndSignIn',
      payload: { email: 'carol@example.com' },
    });
    const page = await t.app.inject({ url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('carol@example.com');
  });
});

describe('profile', () => {
  it('updates the given and family name, trimmed', async () => {
    const { accessToken } = await t.signIn('dana@example.com');
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(accessToken),
      payload: { givenName: ' Dana ', familyName: 'Lee' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ givenName: 'Dana', familyName: 'Lee', name: 'Dana Lee' });
  });

  it('refuses blank names and unknown fields with 400', async () => {
    const { accessToken } = await t.signIn('erin@example.com');
    const blank = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(accessToken),
      payload: { givenName: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(accessToken),
      payload: { emailAddress: 'x@example.com' },
    });
    expect(extra.statusCode).toBe(400);
    // Read-only fields of the stored user (spec 7: the body is the stored user merged with the change) are ignored.
    const readOnly = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(accessToken),
      payload: { email: 'x@example.com' },
    });
    expect(readOnly.statusCode).toBe(200);
    expect(readOnly.json()).toMatchObject({ email: 'erin@example.com' });
  });

  it('keeps the username suffix when the nickname changes', async () => {
    const { accessToken } = await t.signIn('alice@example.com');
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/username',
      headers: bearer(accessToken),
      payload: { username: 'ali' },
    });
    expect(r.json()).toMatchObject({ preferredUsername: 'ali#4821', uniqueID: '#4821', nickname: 'ali' });
  });
});
