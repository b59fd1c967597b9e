/**
 * The organisation's brand over the organisation API (issue 21 point 3): GET and PATCH /v1/org/organisation,
 * validated as at creation; the panel's branding answer shows a change at once on this instance and, changed
 * elsewhere (another instance), after the branding cache's 60 s.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
});
afterEach(async () => {
  await t.close();
});

const createOrg = async (slug: string, extra: object = {}) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: `Org ${slug}`, ...extra },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id: number; apiKey: string }>();
};
const patch = (key: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url: '/v1/org/organisation', headers: bearer(key), payload });
const branding = async (slug: string) => {
  const r = await t.app.inject({ url: `/v1/organisations/${slug}` });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ name: string; primaryColor: string | null; websiteUrl: string | null; logoUrl: string | null }>();
};

describe('PATCH /v1/org/organisation', () => {
  it('changes the fields given, clears with null, and the panel branding shows it at once', async () => {
    const org = await createOrg('acme', { primaryColor: '#7c3aed', websiteUrl: 'https://acme.example' });
    expect(await branding('acme')).toMatchObject({ primaryColor: '#7c3aed', websiteUrl: 'https://acme.example' });
    const r = await patch(org.apiKey, {
      name: 'Acme Live',
      primaryColor: '#0F766E',
      logoUrl: 'https://acme.example/logo.png',
      helpCenterUrl: 'https://acme.example/help',
      websiteUrl: null,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({
      slug: 'acme',
      name: 'Acme Live',
      logoUrl: 'https://acme.example/logo.png',
      primaryColor: '#0f766e',
      websiteUrl: null,
      helpCenterUrl: 'https://acme.example/help',
      appUrl: null,
    });
    // The branding answer was cached a moment ago: the change shows anyway (the cache forgot the slug).
    expect(await branding('acme')).toMatchObject({
      name: 'Acme Live',
      primaryColor: '#0f766e',
      websiteUrl: null,
      logoUrl: 'https://acme.example/logo.png',
    });
    expect((await t.app.inject({ url: '/v1/org/organisation', headers: bearer(org.apiKey) })).json()).toMatchObject({
      name: 'Acme Live',
    });
    // Only the fields given change.
    expect((await patch(org.apiKey, { appUrl: 'https://acme.example/app' })).json()).toMatchObject({
      name: 'Acme Live',
      primaryColor: '#0f766e',
      appUrl: 'https://acme.example/app',
    });
  });

  it('validates like creation: https URLs, #rrggbb, a name, something to change', async () => {
    const org = await createOrg('acme');
    for (const bad of [
      {},
      { name: '' },
      { primaryColor: 'red' },
      { primaryColor: '#12345' },
      { logoUrl: 'http://insecure.example/logo.png' },
      { websiteUrl: 'javascript:alert(1)' },
      { helpCenterUrl: 'not a url' },
      { slug: 'other' },
    ]) {
      const r = await patch(org.apiKey, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json<{ message: string }>().message).toBe('api.invalid_request_body');
    }
    expect((await patch('tpk_wrong', { name: 'x' })).statusCode).toBe(401);
  });

  it('changed by another instance, the branding answer follows within the cache time (60 s)', async () => {
    await createOrg('acme', { primaryColor: '#7c3aed' });
    expect((await branding('acme')).primaryColor).toBe('#7c3aed');
    await rawQuery(t.database.db, `update organisations set primary_color = '#0f766e' where slug = 'acme'`);
    t.clock.advance(30_000);
    expect((await branding('acme')).primaryColor).toBe('#7c3aed');
    t.clock.advance(31_000);
    expect((await branding('acme')).primaryColor).toBe('#0f766e');
  });

  it("one organisation's key changes only its own brand", async () => {
    const a = await createOrg('acme');
    await createOrg('bravo');
    expect((await patch(a.apiKey, { name: 'Renamed' })).statusCode).toBe(200);
    expect((await branding('bravo')).name).toBe('Org bravo');
    expect((await branding('acme')).name).toBe('Renamed');
  });
});
