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
      rescheduleThresholdMinutes: 60,
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
      { rescheduleThresholdMinutes: -1 },
      { rescheduleThresholdMinutes: 10_081 },
      { rescheduleThresholdMinutes: 1.5 },
      { rescheduleThresholdMinutes: '60' },
    ]) {
      const r = await patch(org.apiKey, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json<{ message: string }>().message).toBe('api.invalid_request_body');
    }
    expect((await patch('tpk_wrong', { name: 'x' })).statusCode).toBe(401);
  });

  it('reads and sets the reschedule threshold (issue 46): 0 to a week, audited with the brand, used by the next event change', async () => {
    const org = await createOrg('acme');
    const get = async () =>
      (await t.app.inject({ url: '/v1/org/organisation', headers: bearer(org.apiKey) })).json<{
        rescheduleThresholdMinutes: number;
      }>().rescheduleThresholdMinutes;
    expect(await get()).toBe(60);
    for (const minutes of [0, 10_080, 15]) {
      const r = await patch(org.apiKey, { rescheduleThresholdMinutes: minutes });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ name: 'Org acme', rescheduleThresholdMinutes: minutes });
      expect(await get()).toBe(minutes);
    }
    const audit = await t.app.inject({ url: '/v1/org/audit-log?action=branding.updated', headers: bearer(org.apiKey) });
    expect(audit.json<{ items: { detail: unknown }[] }>().items[0].detail).toEqual({
      fields: ['rescheduleThresholdMinutes'],
    });
    // The next change of an event's times reads it: 20 minutes is more than 15, a new date.
    const event = {
      name: 'Show',
      venue: 'Hall',
      address: '1 Main St',
      city: 'Sydney',
      country: 'AU',
      startsAt: '2027-03-01T08:00:00.000Z',
      endsAt: '2027-03-01T10:00:00.000Z',
      timeZone: 'Australia/Sydney',
    };
    const put = (body: object) =>
      t.app.inject({ method: 'PUT', url: '/v1/org/events/e-1', headers: bearer(org.apiKey), payload: body });
    expect((await put(event)).statusCode).toBe(201);
    expect((await put({ ...event, startsAt: '2027-03-01T08:20:00.000Z' })).statusCode).toBe(200);
    const row = await rawQuery<{ at: Date | null }>(t.database.db, `select rescheduled_at as at from events`);
    expect(row.rows[0].at).not.toBeNull();
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
