/**
 * What the Activity page can say about an entry (issue 41, point 12 re-walk): `ticket_type.updated` names the
 * fields whose value changed (the request's names; `benefits`, `swapTargets`) and the price before and after;
 * `member.removed` names the member by e-mail as `member.added` does; `ticket.revoked` carries the number the holder
 * reads beside the organiser's id; an entry about the organisation names it (`resourceName`, issue 41 leftovers
 * point 3) rather than showing its row id.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '@tp/contract';
import { bearer, createTestApp, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let key: string;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme', ownerEmail: 'owner@acme.example' },
  });
  expect(r.statusCode, r.body).toBe(201);
  key = r.json<{ apiKey: string }>().apiKey;
});
afterEach(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1/org${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
const entries = async (action: string): Promise<AuditEntry[]> => {
  const r = await call('GET', `/audit-log?action=${action}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<AuditPage>().items;
};
const type = (over: object = {}) => ({
  eventExternalId: 'evt-1',
  name: 'GA',
  priceCents: 8900,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  ...over,
});

async function anEvent() {
  const e = await call('PUT', '/events/evt-1', {
    name: 'Harbour Nights',
    startsAt: '2027-03-01T18:00:00+11:00',
    endsAt: '2027-03-01T23:00:00+11:00',
    timeZone: 'Australia/Sydney',
    venue: 'Pier 2',
    city: 'Sydney',
    country: 'AU',
  });
  expect(e.statusCode, e.body).toBe(201);
}

describe('audit details', () => {
  it('an entry about the organisation names it (its name), not its row id', async () => {
    const [created] = await entries('organisation.created');
    expect(created).toMatchObject({ resourceType: 'organisation', resourceName: 'Acme' });
    expect(created.detail).toMatchObject({ slug: 'acme', name: 'Acme' });
    const patched = await call('PATCH', '/organisation', { primaryColor: '#0f766e' });
    expect(patched.statusCode, patched.body).toBe(200);
    const [branding] = await entries('branding.updated');
    expect(branding).toMatchObject({ resourceType: 'organisation', resourceName: 'Acme' });
    // Renamed: its entries read the name it has now (the row id never changes, the name the console shows does).
    expect((await call('PATCH', '/organisation', { name: 'Acme Live' })).statusCode).toBe(200);
    expect((await entries('organisation.created'))[0].resourceName).toBe('Acme Live');
    // Entries about other things carry no name of their own (their id or detail names them).
    expect((await entries('api_key.created'))[0].resourceName).toBeNull();
  });

  it("event.created names the event (Activity's row had no detail, issue 41 point 12 re-walk)", async () => {
    await anEvent();
    const [created] = await entries('event.created');
    expect(created).toMatchObject({ resourceType: 'event', resourceId: 'evt-1', detail: { name: 'Harbour Nights' } });
  });

  it('ticket_type.updated: only the fields whose value changed, and the price before and after', async () => {
    await anEvent();
    expect((await call('PUT', '/ticket-types/ga', type())).statusCode).toBe(201);
    expect((await call('PUT', '/ticket-types/vip', type({ name: 'VIP', priceCents: 18900 }))).statusCode).toBe(201);
    // The console's form sends every field: only the price (and so the resale cap, which defaults to it) and the
    // giftable flag differ.
    const r = await call('PUT', '/ticket-types/ga', type({ priceCents: 9900, isGiftable: false }));
    expect(r.statusCode, r.body).toBe(200);
    let [updated] = await entries('ticket_type.updated');
    expect(updated.resourceId).toBe('ga');
    expect(updated.detail).toEqual({
      eventExternalId: 'evt-1',
      fields: ['priceCents', 'resaleCapCents', 'isGiftable'],
      price: { fromCents: 8900, toCents: 9900, currency: 'AUD' },
    });
    // A benefit and a swap target: named as such, no price.
    const more = await call(
      'PUT',
      '/ticket-types/ga',
      type({
        priceCents: 9900,
        isGiftable: false,
        benefits: [{ externalId: 'drink', name: 'Drink voucher', type: 'benefits.food_beverage' }],
        swapTargets: [{ ticketTypeExternalId: 'vip' }],
      }),
    );
    expect(more.statusCode, more.body).toBe(200);
    [updated] = await entries('ticket_type.updated');
    expect(updated.detail).toEqual({ eventExternalId: 'evt-1', fields: ['benefits', 'swapTargets'] });
  });

  it("the first owner's member.added (the platform operator's) names them by e-mail too", async () => {
    const [first] = await entries('member.added');
    expect(first.detail).toMatchObject({ email: 'owner@acme.example', role: 'owner' });
  });

  it('member.removed names the member by e-mail, as member.added does', async () => {
    const added = await call('POST', '/members', { email: 'staff@acme.example', role: 'staff' });
    expect(added.statusCode, added.body).toBe(201);
    const { id } = added.json<{ id: number }>();
    const removed = await call('DELETE', `/members/${id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    const [entry] = await entries('member.removed');
    expect(entry.detail).toMatchObject({ email: 'staff@acme.example', role: 'staff' });
  });

  it('ticket.revoked carries the number the holder reads', async () => {
    await anEvent();
    expect((await call('PUT', '/ticket-types/ga', type())).statusCode).toBe(201);
    const issued = await call('PUT', '/tickets/T-1', { ticketTypeExternalId: 'ga', holderEmail: 'ann@example.com' });
    expect(issued.statusCode, issued.body).toBe(201);
    const { number } = (await call('GET', '/tickets/T-1')).json<{ number: number }>();
    expect((await call('DELETE', '/tickets/T-1')).statusCode).toBe(204);
    const [entry] = await entries('ticket.revoked');
    expect(entry.resourceId).toBe('T-1');
    expect(entry.detail).toEqual({ number });
  });
});
