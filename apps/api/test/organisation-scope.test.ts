/**
 * The panel per organiser (issue 12, point 3): `GET /v1/organisations/{slug}` and the `X-Organisation` header,
 * which limits every holder list and lookup of tickets to that organisation's events. Two organisations (the
 * seeded demo one and "river") and one holder, alice, with tickets in both: one account per e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { MyTicket, OrganisationBranding } from '@tp/contract';
import {
  benefits,
  events,
  organisations,
  payoutAccounts,
  resaleListingTickets,
  resaleListings,
  swapPairs,
  ticketTypes,
  userTicketBenefits,
  userTickets,
  users,
} from '../src/db/schema.js';
import { bearer, createTestApp, type ResellableTicketBody, type SwapTicketBody, type TestApp } from './helper.js';

let t: TestApp;
let alice: string;
let riverTicketIds: number[];
let riverBenefitId: number;
let riverTypeId: number;
let demoTicketIds: number[];

const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const db = t.database.db;
  const now = t.clock.now();
  const [alicesRow] = await db.select().from(users).where(eq(users.email, 'alice@example.com'));
  const [river] = await db
    .insert(organisations)
    .values({
      slug: 'river',
      name: 'River Festival',
      logoUrl: '/public/demo/org-logo.svg',
      website: null,
      primaryColor: '#0E7C66',
      helpCenterUrl: 'https://river.example/help',
    })
    .returning();
  const [event] = await db
    .insert(events)
    .values({
      organisationId: river.id,
      name: 'River Festival 2027',
      city: 'Brisbane',
      country: 'AU',
      venue: 'South Bank',
      address1: '1 Stanley St',
      latitude: -27.47,
      longitude: 153.02,
      timeZone: 'Australia/Brisbane',
      startsAt: new Date(now.getTime() + 30 * DAY),
      endsAt: new Date(now.getTime() + 31 * DAY),
    })
    .returning();
  const [ga, vip] = await db
    .insert(ticketTypes)
    .values(
      ['River GA', 'River VIP'].map((name, i) => ({
        eventId: event.id,
        organisationId: river.id,
        name,
        priceCents: 5000 + i * 5000,
        currencyCode: 'AUD',
        maxResalePriceCents: 6000 + i * 5000,
        stock: 10,
        isGiftable: true,
        isResellable: true,
        isSwappable: true,
      })),
    )
    .returning();
  riverTypeId = ga.id;
  await db.insert(swapPairs).values({ fromTicketTypeId: ga.id, toTicketTypeId: vip.id });
  const held = await db
    .insert(userTickets)
    .values([
      { organisationId: river.id, ticketTypeId: ga.id, holderId: alicesRow.id },
      { organisationId: river.id, ticketTypeId: ga.id, holderId: alicesRow.id },
    ])
    .returning();
  riverTicketIds = held.map((r) => r.id);
  const [benefit] = await db
    .insert(benefits)
    .values({
      ticketTypeId: ga.id,
      name: 'River drink',
      type: 'benefits.digital',
      isUnlockable: true,
      redeemCode: 'RIVER-1',
    })
    .returning();
  const [heldBenefit] = await db
    .insert(userTicketBenefits)
    .values({ userTicketId: riverTicketIds[0], benefitId: benefit.id, purchasedAmount: 1 })
    .returning();
  riverBenefitId = heldBenefit.id;
  // A live listing of the second river ticket (resale SALE list).
  const [listing] = await db
    .insert(resaleListings)
    .values({
      sellerId: alicesRow.id,
      ticketTypeId: ga.id,
      quantity: 1,
      priceCents: 5500,
      feeCents: 550,
      currencyCode: 'AUD',
      status: 'LISTED',
      shareToken: 'river-share',
      listedAt: now,
    })
    .returning();
  await db
    .insert(resaleListingTickets)
    .values({ listingId: listing.id, userTicketId: riverTicketIds[1], status: 'LISTED' });
  await db.insert(payoutAccounts).values({
    userId: alicesRow.id,
    provider: 'sandbox',
    externalId: 'sbx_river',
    status: 'VERIFIED',
    verifiedAt: now,
  });
  alice = (await t.signIn('alice@example.com')).accessToken;
  const all = await list('UPCOMING');
  demoTicketIds = all.map((x) => x.userTicketId).filter((id) => !riverTicketIds.includes(id));
});
afterAll(async () => {
  await t.close();
});

const headers = (org?: string) => ({ ...bearer(alice), ...(org ? { 'x-organisation': org } : {}) });
async function list(status: 'UPCOMING' | 'PAST', org?: string): Promise<MyTicket[]> {
  const res = await t.app.inject({ url: `/v1/list/ticket_listing?status=${status}`, headers: headers(org) });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const ids = (tickets: { userTicketId: number }[]) => tickets.map((x) => x.userTicketId).sort((a, b) => a - b);

describe('GET /v1/organisations/{slug}', () => {
  it("answers the organisation's branding, public and cached briefly", async () => {
    const res = await t.app.inject({ url: '/v1/organisations/river' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.json<OrganisationBranding>()).toMatchObject({
      slug: 'river',
      name: 'River Festival',
      logoUrl: '/public/demo/org-logo.svg',
      primaryColor: '#0e7c66',
      websiteUrl: null,
      helpCenterUrl: 'https://river.example/help',
      appUrl: null,
    });
    // The colour's palettes for both themes, AA-safe (brand-colors.test.ts has the rules).
    const { theme } = res.json<OrganisationBranding>();
    expect(theme?.light.accent).toMatch(/^#[0-9a-f]{6}$/);
    expect(theme?.dark.accentText).toMatch(/^#[0-9a-f]{6}$/);
  });
  it('answers 404 api.organisation.not_found for an unknown or malformed slug', async () => {
    for (const slug of ['nobody', 'UPPER', '-x', 'a'.repeat(70)]) {
      const res = await t.app.inject({ url: `/v1/organisations/${slug}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'api.organisation.not_found' });
    }
  });
});

describe('X-Organisation on the holder API', () => {
  it('without the header lists every ticket of the holder, of both organisations (one account per e-mail)', async () => {
    const all = ids(await list('UPCOMING'));
    expect(all).toEqual(expect.arrayContaining(riverTicketIds));
    expect(demoTicketIds.length).toBeGreaterThan(0);
  });

  it("with the header lists only that organisation's tickets, upcoming and past", async () => {
    expect(ids(await list('UPCOMING', 'river'))).toEqual(riverTicketIds);
    expect(await list('PAST', 'river')).toEqual([]);
    expect(ids(await list('UPCOMING', 'demo'))).toEqual(ids(demoTicketIds.map((userTicketId) => ({ userTicketId }))));
    const pastDemo = await list('PAST', 'demo');
    expect(pastDemo.length).toBeGreaterThan(0);
    expect(ids(await list('PAST'))).toEqual(ids(pastDemo));
  });

  it('answers 404 api.organisation.not_found for an unknown slug, on every holder call', async () => {
    for (const url of [
      '/v1/list/ticket_listing?status=UPCOMING',
      '/v1/ticket_swap/tickets',
      '/v1/resell/tickets/available',
    ]) {
      const res = await t.app.inject({ url, headers: headers('nobody') });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'api.organisation.not_found' });
    }
  });

  it('an unauthenticated call stays 401 whatever the header', async () => {
    const res = await t.app.inject({
      url: '/v1/list/ticket_listing?status=UPCOMING',
      headers: { 'x-organisation': 'nobody' },
    });
    expect(res.statusCode).toBe(401);
  });

  it("one ticket of another organisation answers 404 api.ticket.not_found; the organisation's own, 200", async () => {
    const url = `/v1/list/ticket_listing/${riverTicketIds[0]}`;
    const other = await t.app.inject({ url, headers: headers('demo') });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ message: 'api.ticket.not_found' });
    expect((await t.app.inject({ url, headers: headers('river') })).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: headers() })).statusCode).toBe(200);
  });

  it('gift verify and gift treat a ticket of another organisation as not held', async () => {
    const verify = (org?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/mobile/gift/verify',
        headers: headers(org),
        payload: { userTicketId: riverTicketIds[0] },
      });
    expect((await verify('demo')).statusCode).toBe(403);
    expect((await verify('river')).json()).toEqual({ extras: { canBeGifted: true } });
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: headers('demo'),
      payload: { userTicketId: riverTicketIds[0], username: 'bob@example.com' },
    });
    expect(gift.statusCode).toBe(403);
    expect(gift.json()).toMatchObject({ message: 'gift_tickets.not_allowed' });
    expect(ids(await list('UPCOMING', 'river'))).toEqual(riverTicketIds);
  });

  it("swap base tickets and a swap start see only the organisation's tickets", async () => {
    const bases = async (org?: string) =>
      (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: headers(org) })).json<SwapTicketBody[]>();
    expect((await bases('river')).map((b) => b.id)).toEqual([riverTypeId]);
    expect((await bases('demo')).map((b) => b.id)).not.toContain(riverTypeId);
    expect((await bases()).map((b) => b.id)).toContain(riverTypeId);
    const [pair] = await t.database.db.select().from(swapPairs).where(eq(swapPairs.fromTicketTypeId, riverTypeId));
    const start = await t.app.inject({
      method: 'POST',
      url: '/v1/ticket_swap/start_swap',
      headers: headers('demo'),
      payload: { baseTicketId: riverTypeId, swapPairId: pair.id, swapQuantity: 1 },
    });
    expect(start.statusCode).toBe(409);
    expect(start.json()).toMatchObject({ message: 'api.swap.not_swappable' });
  });

  it("resale: tickets available, listings for sale and a new listing are the organisation's only", async () => {
    const available = async (org?: string) =>
      (await t.app.inject({ url: '/v1/resell/tickets/available', headers: headers(org) })).json<
        ResellableTicketBody[]
      >();
    expect((await available('river')).map((x) => x.ticketId)).toEqual([riverTypeId]);
    expect((await available('demo')).map((x) => x.ticketId)).not.toContain(riverTypeId);
    const sales = async (org?: string) =>
      (await t.app.inject({ url: '/v1/resell/ticket/sales', headers: headers(org) })).json<{ name: string }[]>();
    expect((await sales('river')).length).toBe(1);
    expect(await sales('demo')).toEqual([]);
    expect((await sales()).length).toBe(1);
    const create = await t.app.inject({
      method: 'POST',
      url: '/v1/resell',
      headers: headers('demo'),
      payload: {
        userTicketId: riverTicketIds[0],
        amountCount: 1,
        price: 50,
        currencyCode: 'AUD',
        currencySymbol: 'A$',
      },
    });
    expect(create.statusCode).toBe(409);
    expect(create.json()).toMatchObject({ message: 'api.resell.create.not_resellable' });
  });

  it('benefit unlock on a ticket of another organisation answers invalid_benefit_id; in its own, the code', async () => {
    const unlock = (org?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/mobile/unlock/${riverTicketIds[0]}`,
        headers: headers(org),
        payload: { userTicketBenefitId: riverBenefitId },
      });
    const other = await unlock('demo');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ message: 'api.unlock.invalid_benefit_id' });
    expect((await unlock('river')).json()).toEqual({ redeemCode: 'RIVER-1' });
  });
});

describe('the demo host page', () => {
  it('embeds the panel of ?org= with data-org, and of the demo organisation by default', async () => {
    const river = await t.app.inject({ url: '/?org=river' });
    expect(river.body).toContain('data-org="river"');
    expect(river.body).toContain('<title>River Festival</title>');
    expect((await t.app.inject({ url: '/' })).body).toContain('data-org="demo"');
    expect((await t.app.inject({ url: '/?org=nobody' })).body).toContain('data-org="demo"');
  });
});

describe('the OpenAPI document', () => {
  it('documents the branding endpoint and X-Organisation on holder calls', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    }>();
    expect(doc.paths['/v1/organisations/{slug}']?.get).toBeDefined();
    const header = (op?: { parameters?: { name: string; in: string }[] }) =>
      op?.parameters?.some((p) => p.in === 'header' && p.name === 'x-organisation');
    expect(header(doc.paths['/v1/list/ticket_listing']?.get)).toBe(true);
    expect(header(doc.paths['/v1/resell/tickets/available']?.get)).toBe(true);
    expect(header(doc.paths['/v1/organisations/{slug}']?.get)).toBeFalsy();
  });
});
