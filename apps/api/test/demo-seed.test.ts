/**
 * The demo data as a new organiser meets it after `npm start` (issue 41, point 12 re-walk): the console and the
 * organisation API address events, ticket types and tickets by the organiser's external id, so every seeded one
 * has one (a ticket's Details, an event's Edit, Dashboard and Ticket types work on them), and the demo's logo is a
 * value the branding form sends back unchanged, so a name or colour change saves.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
let key: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true, config: { adminKey: ADMIN } });
  const { rows } = await rawQuery<{ id: number }>(t.database.db, `select id from organisations where slug = 'demo'`);
  const r = await t.app.inject({
    method: 'POST',
    url: `/v1/admin/organisations/${rows[0].id}/api-keys`,
    headers: bearer(ADMIN),
  });
  expect(r.statusCode, r.body).toBe(201);
  key = r.json<{ apiKey: string }>().apiKey;
});
afterEach(async () => {
  await t.close();
});

const get = async <T>(url: string) => {
  const r = await t.app.inject({ url: `/v1/org${url}`, headers: bearer(key) });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return r.json<T>();
};
type Page<T> = { items: T[] };
type Event = {
  externalId: string | null;
  name: string;
  venue: string;
  city: string;
  country: string;
  startsAt: string;
  endsAt: string;
  timeZone: string;
};

describe('the demo data', () => {
  it('every event, ticket type and ticket has an external id the organisation API opens', async () => {
    const events = [
      ...(await get<Page<Event>>('/events?when=upcoming&limit=100')).items,
      ...(await get<Page<Event>>('/events?when=past&limit=100')).items,
    ];
    expect(events.length).toBe(7);
    for (const e of events) {
      expect(e.externalId, e.name).toMatch(/^demo-/);
      await get(`/events/${encodeURIComponent(e.externalId!)}`);
      await get(`/events/${encodeURIComponent(e.externalId!)}/attendance`);
      const types = (
        await get<Page<{ externalId: string | null; eventExternalId: string | null }>>(
          `/ticket-types?event=${encodeURIComponent(e.externalId!)}`,
        )
      ).items;
      expect(types.length, e.name).toBe(2);
      for (const tt of types) {
        expect(tt.externalId).toMatch(/^demo-/);
        expect(tt.eventExternalId).toBe(e.externalId);
      }
    }
    const tickets = (
      await get<Page<{ externalId: string | null; eventExternalId: string | null; number: number }>>(
        '/tickets?limit=100',
      )
    ).items;
    expect(tickets.length).toBe(11);
    for (const tk of tickets) {
      expect(tk.externalId).toMatch(/^DEMO-\d{4}$/);
      expect(tk.eventExternalId).toMatch(/^demo-/);
      const detail = await get<{ externalId: string; number: number }>(
        `/tickets/${encodeURIComponent(tk.externalId!)}`,
      );
      expect(detail).toMatchObject({ externalId: tk.externalId, number: tk.number });
    }
  });

  it('every demo ticket has the history a real issue gives it: issued to its holder when it was made', async () => {
    const tickets = (await get<Page<{ externalId: string; holder: { email: string } | null }>>('/tickets?limit=100'))
      .items;
    expect(tickets.length).toBe(11);
    for (const tk of tickets) {
      const detail = await get<{ history: { kind: string; at: string; to?: { email: string } | null }[] }>(
        `/tickets/${encodeURIComponent(tk.externalId)}`,
      );
      const moves = detail.history.filter((h) => h.kind !== 'checked_in');
      expect(
        moves.map((h) => [h.kind, h.to?.email]),
        tk.externalId,
      ).toEqual([['issued', tk.holder?.email]]);
      expect(Date.parse(moves[0].at), tk.externalId).not.toBeNaN();
    }
    const { rows } = await rawQuery<{ n: number }>(
      t.database.db,
      `select count(*)::int as n from user_tickets u join ticket_history h on h.user_ticket_id = u.id
        where h.kind = 'ISSUE' and h.from_user_id is null and h.to_user_id = u.holder_id and h.at = u.created_at`,
    );
    expect(rows[0].n).toBe(11);
  });

  it("a demo event's edit saves (PUT by its external id)", async () => {
    const [e] = (await get<Page<Event>>('/events?when=upcoming&limit=1')).items;
    const r = await t.app.inject({
      method: 'PUT',
      url: `/v1/org/events/${encodeURIComponent(e.externalId!)}`,
      headers: bearer(key),
      payload: {
        name: `${e.name} (moved)`,
        venue: e.venue,
        city: e.city,
        country: e.country,
        startsAt: e.startsAt,
        endsAt: e.endsAt,
        timeZone: e.timeZone,
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect((await get<Event>(`/events/${encodeURIComponent(e.externalId!)}`)).name).toBe(`${e.name} (moved)`);
  });
});

describe("the demo organisation's branding", () => {
  it('saves a new name and colour with the demo logo sent back as read, and the panel still shows that logo', async () => {
    const o = await get<{ name: string; logoUrl: string | null }>('/organisation');
    expect(o.logoUrl).toBe('/public/demo/org-logo.svg');
    const r = await t.app.inject({
      method: 'PATCH',
      url: '/v1/org/organisation',
      headers: bearer(key),
      // What the console's branding form sends: every field, the logo as it was read.
      payload: {
        name: 'Southern Lights Touring',
        primaryColor: '#0f766e',
        logoUrl: o.logoUrl,
        websiteUrl: 'https://southernlights.example',
        helpCenterUrl: null,
        appUrl: null,
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    const panel = await t.app.inject({ url: '/v1/organisations/demo' });
    expect(panel.json()).toMatchObject({ name: 'Southern Lights Touring', logoUrl: '/public/demo/org-logo.svg' });
    const logo = await t.app.inject({ url: '/public/demo/org-logo.svg' });
    expect(logo.statusCode).toBe(200);
  });

  it.each([
    '//evil.example/logo.svg',
    '/public/../v1/org/organisation',
    '/v1/org/organisation',
    'public/demo/org-logo.svg',
    'http://southernlights.example/logo.svg',
    '/public/demo/logo.svg?x=<script>',
  ])('refuses the logo %s (an https URL or a path under /public/ only)', async (logoUrl) => {
    const r = await t.app.inject({
      method: 'PATCH',
      url: '/v1/org/organisation',
      headers: bearer(key),
      payload: { logoUrl },
    });
    expect(r.statusCode, r.body).toBe(400);
  });
});
