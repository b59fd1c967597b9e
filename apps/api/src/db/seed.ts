/**
 * Demo data, written on first start (when no organisation exists). Dates are relative to `now`
 * so the seed stays true: one live event, four upcoming, two past, in Australian and New Zealand
 * cities. alice@example.com holds tickets to most events (event access used at the live one);
 * bob@example.com to some. Every event, ticket type, benefit and ticket carries an organiser's external id
 * (`demo-<slug>`, `demo-<slug>-ga|vip`, `drink`, `DEMO-0001`…), as if the organiser had sent them through the
 * org API: the console and the org API address everything by it (issue 41, point 12). Each ticket has the history
 * a real issue gives it (`ISSUE` to its holder, when it was made); the demo has no gifted, swapped or resold ticket.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { enqueueLogoFetch } from '../providers/mail/mail-logo.js';
import { orgApiRepository } from '../modules/organisations/org-api.repository.js';
import {
  benefits,
  swapPairs,
  events,
  organisations,
  ticketTypes,
  userTicketBenefits,
  userTickets,
  users,
} from './schema.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const img = (name: string) => `/public/images/${name}`;

const desc = (lead: string, more: string) =>
  `<p><strong>${lead}</strong></p><p>${more}</p><ul><li>Gates open one hour before the first set.</li><li>All ages; under 18s with a guardian.</li><li>Bring your QR pass on your phone — screenshots will not scan.</li></ul><p>Accessible viewing platforms are available; contact the organiser to book a space.</p>`;

interface EventSeed {
  key: string;
  name: string;
  city: string;
  country: 'AU' | 'NZ';
  venue: string;
  address1: string;
  lat: number;
  lng: number;
  tz: string;
  start: number;
  hours: number;
  slug: string;
  currency: 'AUD' | 'NZD';
  gaCents: number;
  vipCents: number;
  blurb: string;
}

/** Key of the advisory lock that serialises seeding across instances ("tp:seed"). */
const SEED_LOCK_KEY = 0x74707364;

/**
 * Inserts the demo organisation, events, ticket types, benefits and users unless already seeded. With
 * `opts.fetchLogo` (the server's start) it also enqueues the fetch of the demo organisation's logo for its e-mails
 * (providers/mail/mail-logo.ts, issue 41 point 9); tests leave it out (their organisations' mails show the name).
 * @returns true when this call seeded
 */
// Over 150 lines: the demo data as one listing, read top to bottom (organisations, events, types, tickets, history);
// no logic to split.
// eslint-disable-next-line max-lines-per-function -- the demo data, as the comment above says
export async function seedDemo(db: Db, now: Date, opts: { fetchLogo?: boolean } = {}): Promise<boolean> {
  const existing = await db.select({ id: organisations.id }).from(organisations).limit(1);
  if (existing.length > 0) return false;
  const t = now.getTime();
  const at = (ms: number) => new Date(t + ms);
  // Round start times to the hour so cards show tidy times.
  const hourly = (ms: number) => new Date(Math.floor((t + ms) / HOUR) * HOUR);

  const list: EventSeed[] = [
    {
      key: 'live',
      name: 'Harbour Lights Festival',
      city: 'Sydney',
      country: 'AU',
      venue: 'Sydney Opera House Forecourt',
      address1: 'Bennelong Point, Sydney NSW 2000',
      lat: -33.8568,
      lng: 151.2153,
      tz: 'Australia/Sydney',
      start: -2 * HOUR,
      hours: 8,
      slug: 'harbour-lights',
      currency: 'AUD',
      gaCents: 8900,
      vipCents: 18900,
      blurb: 'Eight hours of music on the harbour as the sails light up.',
    },
    {
      key: 'mel',
      name: 'Laneway Sessions',
      city: 'Melbourne',
      country: 'AU',
      venue: 'Sidney Myer Music Bowl',
      address1: '21 Linlithgow Ave, Melbourne VIC 3004',
      lat: -37.8226,
      lng: 144.9734,
      tz: 'Australia/Melbourne',
      start: 5 * DAY,
      hours: 6,
      slug: 'laneway-sessions',
      currency: 'AUD',
      gaCents: 12900,
      vipCents: 24900,
      blurb: "Melbourne's favourite alt line-up under the stars.",
    },
    {
      key: 'akl',
      name: 'Aotearoa Sound',
      city: 'Auckland',
      country: 'NZ',
      venue: 'Spark Arena',
      address1: '42-80 Mahuhu Crescent, Auckland 1010',
      lat: -36.8484,
      lng: 174.7786,
      tz: 'Pacific/Auckland',
      start: 12 * DAY,
      hours: 5,
      slug: 'aotearoa-sound',
      currency: 'NZD',
      gaCents: 9900,
      vipCents: 19900,
      blurb: "The best of Aotearoa's new music in one night.",
    },
    {
      key: 'bne',
      name: 'River Nights',
      city: 'Brisbane',
      country: 'AU',
      venue: 'Riverstage',
      address1: '59 Gardens Point Rd, Brisbane City QLD 4000',
      lat: -27.4762,
      lng: 153.0301,
      tz: 'Australia/Brisbane',
      start: 30 * DAY,
      hours: 5,
      slug: 'river-nights',
      currency: 'AUD',
      gaCents: 7900,
      vipCents: 15900,
      blurb: 'Warm nights and big choruses by the Brisbane River.',
    },
    {
      key: 'wlg',
      name: 'Capital Beats',
      city: 'Wellington',
      country: 'NZ',
      venue: 'TSB Arena',
      address1: '4 Queens Wharf, Wellington 6011',
      lat: -41.2849,
      lng: 174.7787,
      tz: 'Pacific/Auckland',
      start: 60 * DAY,
      hours: 6,
      slug: 'capital-beats',
      currency: 'NZD',
      gaCents: 8500,
      vipCents: 16500,
      blurb: 'Electronic music on the Wellington waterfront.',
    },
    {
      key: 'zqn',
      name: 'Southern Alps Fest',
      city: 'Queenstown',
      country: 'NZ',
      venue: 'Queenstown Gardens',
      address1: 'Park St, Queenstown 9300',
      lat: -45.0363,
      lng: 168.6626,
      tz: 'Pacific/Auckland',
      start: -20 * DAY,
      hours: 9,
      slug: 'southern-alps',
      currency: 'NZD',
      gaCents: 11900,
      vipCents: 21900,
      blurb: 'A day of folk and indie beside Lake Wakatipu.',
    },
    {
      key: 'per',
      name: 'Perth Sunset Sessions',
      city: 'Perth',
      country: 'AU',
      venue: 'Kings Park',
      address1: 'Fraser Ave, Perth WA 6005',
      lat: -31.9605,
      lng: 115.8311,
      tz: 'Australia/Perth',
      start: -45 * DAY,
      hours: 5,
      slug: 'perth-sunset',
      currency: 'AUD',
      gaCents: 6900,
      vipCents: 13900,
      blurb: 'Sunset sets overlooking the Swan River.',
    },
  ];

  // Over 150 lines: the demo's tickets, one row after another, inside seedDemo's transaction; data, not logic.
  // eslint-disable-next-line max-lines-per-function -- the demo's tickets, as the comment above says
  return db.transaction(async (tx) => {
    // N instances starting together on an empty database: one seeds, the others wait here, then find it done.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if ((await tx.select({ id: organisations.id }).from(organisations).limit(1)).length > 0) return false;
    const [org] = await tx
      .insert(organisations)
      .values({
        slug: 'demo',
        name: 'Southern Lights Live',
        logoUrl: '/public/demo/org-logo.svg',
        website: 'https://southernlights.example',
      })
      .returning();
    if (opts.fetchLogo) await enqueueLogoFetch(tx, now, org.id, org.logoUrl);
    const [alice, bob] = await tx
      .insert(users)
      .values([
        {
          email: 'alice@example.com',
          givenName: 'Alice',
          familyName: 'Nguyen',
          nickname: 'alice',
          usernameSuffix: 4821,
          locale: 'en',
        },
        {
          email: 'bob@example.com',
          givenName: 'Bob',
          familyName: 'Taylor',
          nickname: 'bob',
          usernameSuffix: 7315,
          locale: 'en',
        },
      ])
      .returning();

    const typeIds: Record<string, { ga: number; vip: number }> = {};
    for (const e of list) {
      const startsAt = e.start < 0 && e.start > -DAY ? at(e.start) : hourly(e.start);
      const [ev] = await tx
        .insert(events)
        .values({
          organisationId: org.id,
          externalId: `demo-${e.slug}`,
          name: e.name,
          description: desc(e.blurb, `${e.venue}, ${e.city}. Food trucks, bars and a merch tent on site.`),
          city: e.city,
          country: e.country,
          venue: e.venue,
          address1: e.address1,
          latitude: e.lat,
          longitude: e.lng,
          timeZone: e.tz,
          startsAt,
          endsAt: new Date(startsAt.getTime() + e.hours * HOUR),
          image: img(`${e.slug}.svg`),
          logo: img(`${e.slug}-logo.svg`),
        })
        .returning();
      /** One of the event's two demo ticket types (`ga` | `vip`): price in cents, resale cap 110 % of it. */
      const demoType = (kind: 'ga' | 'vip', name: string, description: string, priceCents: number, stock: number) => ({
        organisationId: org.id,
        eventId: ev.id,
        externalId: `demo-${e.slug}-${kind}`,
        name,
        description,
        logo: img(`${e.slug}-logo.svg`),
        priceCents,
        currencyCode: e.currency,
        maxResalePriceCents: Math.round(priceCents * 1.1),
        stock,
        isSwappable: true,
      });
      /** A ticket type's drink voucher, valid until the event ends. */
      const drinkVoucher = (ticketTypeId: number, shortDescription: string, fullDescription: string) => ({
        ticketTypeId,
        externalId: 'drink',
        name: 'Drink voucher',
        shortDescription,
        fullDescription,
        type: 'benefits.food_beverage',
        icon: img('icon-drink.svg'),
        iconColor: '#ffffff',
        iconBgColor: '#f97316',
        validUntil: new Date(startsAt.getTime() + e.hours * HOUR),
      });
      const [ga, vip] = await tx
        .insert(ticketTypes)
        .values([
          demoType('ga', 'General Admission', 'Entry to the main arena.', e.gaCents, 500),
          demoType('vip', 'VIP', 'Fast-lane entry, VIP bar and viewing deck.', e.vipCents, 80),
        ])
        .returning();
      typeIds[e.key] = { ga: ga.id, vip: vip.id };
      await tx.insert(swapPairs).values([
        { fromTicketTypeId: ga.id, toTicketTypeId: vip.id },
        { fromTicketTypeId: vip.id, toTicketTypeId: ga.id },
      ]);
      await tx.insert(benefits).values([
        drinkVoucher(
          ga.id,
          'One drink at any festival bar.',
          '<p>Swap at any bar for a beer, wine or soft drink. <em>ID required for alcohol.</em></p>',
        ),
        drinkVoucher(vip.id, 'Two drinks at the VIP bar.', '<p>Two drinks of your choice at the VIP bar.</p>'),
        {
          ticketTypeId: vip.id,
          externalId: 'merch',
          name: 'Merch store discount',
          shortDescription: '20% off at the online merch store.',
          fullDescription:
            '<p>Unlock your personal code and use it at checkout in the online merch store. <strong>One use.</strong></p>',
          type: 'benefits.digital',
          icon: img('icon-gift.svg'),
          iconColor: '#ffffff',
          iconBgColor: '#7c3aed',
          validUntil: new Date(startsAt.getTime() + 30 * DAY),
          isUnlockable: true,
          redeemCode: `SLL-${e.key.toUpperCase()}-MERCH20`,
        },
        {
          ticketTypeId: vip.id,
          externalId: 'fast-lane',
          name: 'Fast-lane entry',
          shortDescription: 'Skip the main queue.',
          fullDescription: '<p>Use the VIP lane at gate B.</p>',
          type: 'benefits.perk',
          icon: img('icon-bolt.svg'),
          iconColor: '#ffffff',
          iconBgColor: '#0ea5e9',
          validUntil: new Date(startsAt.getTime() + e.hours * HOUR),
        },
      ]);
    }

    const allBenefits = await tx.select().from(benefits);
    let ticketCount = 0;
    const issuedAt = at(-60 * DAY);
    const hold = async (
      holderId: number,
      typeId: number,
      opts: { accessUsedAt?: Date; usedBenefits?: boolean } = {},
    ) => {
      const [ut] = await tx
        .insert(userTickets)
        .values({
          organisationId: org.id,
          // DEMO-0001, DEMO-0002, …: the organiser's id the console lists, opens and searches by.
          externalId: `DEMO-${String(++ticketCount).padStart(4, '0')}`,
          ticketTypeId: typeId,
          holderId,
          eventAccessUsedAt: opts.accessUsedAt ?? null,
          createdAt: issuedAt,
        })
        .returning();
      // Its history as a real issue writes it (the org API's ticket-issuing.ts, by the same repository call): issued
      // to its holder when it was made, so the console's ticket drawer shows where it came from.
      await orgApiRepository.insertHistory(tx, [
        { userTicketId: ut.id, fromUserId: null, toUserId: holderId, kind: 'ISSUE', at: issuedAt },
      ]);
      const rows = allBenefits
        .filter((b) => b.ticketTypeId === typeId)
        .map((b) => {
          const purchasedAmount = b.type === 'benefits.food_beverage' && b.shortDescription?.startsWith('Two') ? 2 : 1;
          const used = opts.usedBenefits && b.type === 'benefits.food_beverage';
          return {
            userTicketId: ut.id,
            benefitId: b.id,
            purchasedAmount,
            usedAmount: used ? purchasedAmount : 0,
            lastUsedAt: used ? at(-HOUR) : null,
          };
        });
      if (rows.length) await tx.insert(userTicketBenefits).values(rows);
      return ut.id;
    };
    await hold(alice.id, typeIds.live.ga, { accessUsedAt: at(-90 * 60_000), usedBenefits: true });
    await hold(alice.id, typeIds.mel.vip);
    await hold(alice.id, typeIds.mel.ga);
    await hold(alice.id, typeIds.akl.ga);
    await hold(alice.id, typeIds.bne.vip);
    await hold(alice.id, typeIds.zqn.ga, { accessUsedAt: at(-20 * DAY + HOUR), usedBenefits: true });
    await hold(alice.id, typeIds.per.vip, { accessUsedAt: at(-45 * DAY + HOUR) });
    await hold(bob.id, typeIds.mel.ga);
    await hold(bob.id, typeIds.bne.ga);
    await hold(bob.id, typeIds.wlg.vip);
    await hold(bob.id, typeIds.per.ga, { accessUsedAt: at(-45 * DAY + 2 * HOUR) });
    return true;
  });
}
