/** Swap rules (issue: swap, settings, hub and logout). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MyTicket } from '@tp/contract';
import { formatMoney } from '@tp/contract/format';
import { accentPalette } from '../src/modules/branding/brand-colors.js';
import { orgInitials } from '../src/pages/html.js';
import { bearer, createTestApp, rawQuery, type TestApp, type StartSwapBody } from './helper.js';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp({ seed: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
  bob = (await t.signIn('bob@example.com')).accessToken;
});
afterEach(async () => {
  await t.close();
});

type SwapTicket = {
  id: number;
  name: string;
  price: number;
  currencyCode: string;
  quantity: number;
  eventId: number;
  currencySymbol: string;
};
const bases = async (token: string): Promise<SwapTicket[]> =>
  (await t.app.inject({ url: '/v1/ticket_swap/tickets', headers: bearer(token) })).json();
const targets = async (token: string, id: number): Promise<SwapTicket[]> =>
  (await t.app.inject({ url: `/v1/ticket_swap/tickets/${id}`, headers: bearer(token) })).json();
const start = (token: string, baseTicketId: number, swapPairId: number, swapQuantity: number) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/ticket_swap/start_swap',
    headers: bearer(token),
    payload: { baseTicketId, swapPairId, swapQuantity },
  });
const confirm = (token: string, id: string) =>
  t.app.inject({ method: 'POST', url: `/v1/ticket_swap/confirm_swap/${id}`, headers: bearer(token) });
const typesOf = async (token: string) =>
  (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(token) }))
    .json<MyTicket[]>()
    .map((x) => `${x.eventName}/${x.ticketName}`)
    .sort();

describe('swap', () => {
  it('lists only unused swappable tickets of upcoming events with pairs, grouped by type', async () => {
    const list = await bases(alice);
    // The live Sydney ticket has used event access: not offered.
    expect(list.map((x) => x.name)).toEqual(['General Admission', 'VIP', 'General Admission', 'VIP']);
    expect(list.every((x) => x.quantity === 1)).toBe(true);
    expect(list[0].currencySymbol).toBe('A$');
  });

  it("base tickets and targets name their event; base tickets list the caller's user ticket ids", async () => {
    const list = (await bases(alice)) as (SwapTicket & {
      eventName: string;
      eventVenue: string;
      eventStartDateTime: string;
      eventTimeZone: string;
      userTicketIds: number[];
    })[];
    const mine = (await t.app.inject({ url: '/v1/list/ticket_listing?status=UPCOMING', headers: bearer(alice) })).json<
      MyTicket[]
    >();
    const ga = list.find((x) => x.eventName === 'Laneway Sessions' && x.name === 'General Admission')!;
    expect(ga).toMatchObject({ eventVenue: 'Sidney Myer Music Bowl', eventTimeZone: 'Australia/Melbourne' });
    expect(Number.isNaN(Date.parse(ga.eventStartDateTime))).toBe(false);
    const gaTicket = mine.find((x) => x.eventName === 'Laneway Sessions' && x.ticketName === 'General Admission')!;
    expect(ga.userTicketIds).toEqual([gaTicket.userTicketId]);
    expect(list.flatMap((x) => x.userTicketIds)).not.toContain(
      mine.find((x) => x.eventName === 'Harbour Lights Festival')!.userTicketId,
    );
    const [target] = (await targets(alice, ga.id)) as (SwapTicket & { eventName: string; userTicketIds?: number[] })[];
    expect(target).toMatchObject({ name: 'VIP', eventName: 'Laneway Sessions', eventId: ga.eventId });
    expect(target.userTicketIds).toBeUndefined();
  });

  it('downgrade: confirms at once, changes the type, moves stock, replaces benefits and records history', async () => {
    const vip = (await bases(alice)).find((x) => x.name === 'VIP')! as SwapTicket & { userTicketIds: number[] };
    const [target] = await targets(alice, vip.id);
    expect(target.name).toBe('General Admission');
    const started = await start(alice, vip.id, target.id, 1);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ swapType: 'DOWNGRADE', name: 'Laneway Sessions' });
    expect((await confirm(alice, started.json<StartSwapBody>().orderIdentifier)).statusCode).toBe(200);
    expect(await typesOf(alice)).toContain('Laneway Sessions/General Admission');
    expect((await typesOf(alice)).filter((x) => x === 'Laneway Sessions/General Admission')).toHaveLength(2);
    // The VIP's unused benefits give way to the General Admission's (db/predicates.ts `grantTypeBenefits`).
    const held = await rawQuery<{ short_description: string; purchased_amount: number }>(
      t.database.db,
      `select b.short_description, h.purchased_amount from user_ticket_benefits h join benefits b on b.id = h.benefit_id
       where h.user_ticket_id = ${vip.userTicketIds[0]}`,
    );
    expect(held.rows).toEqual([{ short_description: 'One drink at any festival bar.', purchased_amount: 1 }]);
    // The swap-done mail (issue 23): the new type, the event's facts, the organisation's panel, the .ics.
    const done = t.mail.sent.at(-1)!;
    expect(done.to).toBe('alice@example.com');
    expect(done.subject).toBe('Swap done: your tickets for Laneway Sessions');
    expect(done.text).toContain('Your ticket for Laneway Sessions is now "General Admission".');
    expect(done.text).toMatch(/http:\/\/panel\.test\/en\/\?org=[a-z-]+&PANEL_TAB=MY_TICKET/);
    expect(done.attachments?.map((a) => a.filename)).toEqual(['event.ics']);
    // No wallet configured here: no wallet links.
    expect(done.html).not.toContain('Wallet');
    const again = await confirm(alice, started.json<StartSwapBody>().orderIdentifier);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'api.swap.already_confirmed' });
  });

  it('upgrade: needs payment before confirm', async () => {
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    const started = (await start(alice, ga.id, target.id, 1)).json<StartSwapBody>();
    expect(started.swapType).toBe('UPGRADE');
    const unpaid = await confirm(alice, started.orderIdentifier);
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json()).toEqual({ message: 'api.swap.payment_required' });
    await t.app.services.swap.markPaid(started.orderIdentifier);
    expect((await confirm(alice, started.orderIdentifier)).statusCode).toBe(200);
    // The swap-done mail states what was paid (issue 40), as the checkout showed it (the contract's formatMoney).
    const done = t.mail.sent.at(-1)!;
    expect(done.to).toBe('alice@example.com');
    const amount = formatMoney(target.price - ga.price, target.currencyCode, 'en');
    expect(target.price - ga.price).toBeGreaterThan(0);
    expect(done.text).toContain(`Amount paid: ${amount}.`);
    expect(done.html).toContain(`Amount paid: ${amount}.`);
  });

  it("the swap-done mail states the amount paid in the holder's language, nothing for a downgrade (issue 40)", async () => {
    await rawQuery(t.database.db, `update users set locale = 'es' where email = 'alice@example.com'`);
    const vip = (await bases(alice)).find((x) => x.name === 'VIP')!;
    const [down] = await targets(alice, vip.id);
    const started = (await start(alice, vip.id, down.id, 1)).json<StartSwapBody>();
    expect(started.swapType).toBe('DOWNGRADE');
    expect((await confirm(alice, started.orderIdentifier)).statusCode).toBe(200);
    const done = t.mail.sent.at(-1)!;
    expect(done.subject).toBe('Cambio realizado: tus entradas para Laneway Sessions');
    expect(done.text).toContain(`Importe pagado: ${formatMoney(0, down.currencyCode, 'es')}.`);
  });

  it("refuses more than held, out of stock, a wrong pair, someone else's swap, used tickets", async () => {
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    expect((await start(alice, ga.id, target.id, 2)).json()).toEqual({ message: 'api.swap.quantity_exceeded' });
    await t.database.db.execute(
      `update ticket_types set stock = 0 where id = (select to_ticket_type_id from swap_pairs where id = ${target.id})` as never,
    );
    expect((await start(alice, ga.id, target.id, 1)).json()).toEqual({ message: 'api.swap.out_of_stock' });
    expect((await start(alice, ga.id, 999, 1)).json()).toEqual({ message: 'api.swap.pair_not_found' });
    // bob holds no VIP of that event
    const vipId = (await bases(alice)).find((x) => x.name === 'VIP')!.id;
    const [down] = await targets(alice, vipId);
    const notBobs = await start(bob, vipId, down.id, 1);
    expect(notBobs.json()).toEqual({ message: 'api.swap.not_swappable' });
    const mine = (await start(alice, vipId, down.id, 1)).json<StartSwapBody>();
    expect((await confirm(bob, mine.orderIdentifier)).json()).toEqual({ message: 'api.swap.not_found' });
    await t.database.db.execute('update user_tickets set event_access_used_at = now()');
    expect((await confirm(alice, mine.orderIdentifier)).json()).toEqual({ message: 'api.swap.not_swappable' });
  });

  it('reservations count against stock and expire', async () => {
    const vip = (await bases(alice)).find((x) => x.name === 'VIP')!;
    const [down] = await targets(alice, vip.id);
    await t.database.db.execute(
      `update ticket_types set stock = 1 where id = (select to_ticket_type_id from swap_pairs where id = ${down.id})` as never,
    );
    const mine = (await start(alice, vip.id, down.id, 1)).json<StartSwapBody>();
    expect((await targets(bob, vip.id))[0].quantity).toBe(0);
    t.clock.advance(16 * 60_000);
    alice = (await t.signIn('alice@example.com')).accessToken;
    bob = (await t.signIn('bob@example.com')).accessToken;
    expect((await targets(bob, vip.id))[0].quantity).toBe(1);
    expect((await confirm(alice, mine.orderIdentifier)).json()).toEqual({ message: 'api.swap.expired' });
  });

  it('sandbox checkout pays an upgrade, confirms and returns to the panel', async () => {
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    const { orderIdentifier } = (await start(alice, ga.id, target.id, 1)).json<StartSwapBody>();
    const back = encodeURIComponent('http://panel.test/en/?PANEL_TAB=MY_TICKET');
    const url = `/checkout/en/laneway-sessions-${ga.eventId}/${orderIdentifier}?redirectDomain=${back}&origin=ticket_swap`;
    await rawQuery(
      t.database.db,
      `update organisations set logo = 'https://brand.example/logo.png', primary_color = '#ff9900'`,
    );
    const org = await rawQuery<{ name: string }>(
      t.database.db,
      `select o.name from organisations o join events e on e.organisation_id = o.id where e.id = ${ga.eventId}`,
    );
    const brandHeader = `<header class="brand"><img src="https://brand.example/logo.png" alt="" data-initials="${orgInitials(org.rows[0].name)}"><span>${org.rows[0].name}</span></header>`;
    const accent = accentPalette('#ff9900', 'light')!.accent;
    const page = await t.app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pay with sandbox card');
    // The ticket's organisation's brand, like the resale pages (issue 23): name, logo, colour on the pay button.
    expect(page.body).toContain(brandHeader);
    expect(page.body).toContain(`button:not(.secondary){background:${accent}`);
    const paid = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('http://panel.test/en/?PANEL_TAB=MY_TICKET');
    expect((await typesOf(alice)).filter((x) => x === 'Laneway Sessions/VIP')).toHaveLength(2);
    const evil = await t.app.inject({
      method: 'POST',
      url: url.replace(back, encodeURIComponent('https://evil.example/')),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(evil.statusCode).toBe(409);
    expect(evil.body).not.toContain('evil.example');
    expect(evil.body).toContain(brandHeader);
  });
});

describe('the payment of an upgrade (issue 43: the money group)', () => {
  const cancel = (token: string, id: string) =>
    t.app.inject({ method: 'POST', url: `/v1/ticket_swap/cancel_swap/${id}`, headers: bearer(token) });
  const upgrade = async (quantity = 1) => {
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    const started = await start(alice, ga.id, target.id, quantity);
    expect(started.json<StartSwapBody>().swapType).toBe('UPGRADE');
    return { ga, target, id: started.json<StartSwapBody>().orderIdentifier };
  };

  it('an upgrade of two tickets: the mail states the difference paid for both', async () => {
    await rawQuery(
      t.database.db,
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id)
       select ut.organisation_id, ut.ticket_type_id, ut.holder_id from user_tickets ut
       join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id
       join users u on u.id = ut.holder_id
       where u.email = 'alice@example.com' and e.name = 'Laneway Sessions' and tt.name = 'General Admission'`,
    );
    const { ga, target, id } = await upgrade(2);
    await t.app.services.swap.markPaid(id);
    expect((await confirm(alice, id)).json()).toEqual({ swapType: 'UPGRADE', quantity: 2 });
    expect((await typesOf(alice)).filter((x) => x === 'Laneway Sessions/VIP')).toHaveLength(3);
    const amount = formatMoney(2 * (target.price - ga.price), target.currencyCode, 'en');
    expect(t.mail.sent.at(-1)!.text).toContain(`Amount paid: ${amount}.`);
  });

  it('a paid upgrade is neither cancelled nor expired: past its reservation time it still confirms', async () => {
    const { id } = await upgrade();
    await t.app.services.swap.markPaid(id);
    t.clock.advance(16 * 60_000);
    alice = (await t.signIn('alice@example.com')).accessToken;
    // The payment must be refunded first: the cancel leaves the swap as it is.
    expect((await cancel(alice, id)).statusCode).toBe(204);
    expect((await confirm(alice, id)).json()).toEqual({ swapType: 'UPGRADE', quantity: 1 });
    expect((await typesOf(alice)).filter((x) => x === 'Laneway Sessions/VIP')).toHaveLength(2);
  });

  it('an unpaid upgrade past its reservation time is expired; a confirmed swap cannot be cancelled', async () => {
    const { id } = await upgrade();
    t.clock.advance(16 * 60_000);
    alice = (await t.signIn('alice@example.com')).accessToken;
    expect((await confirm(alice, id)).json()).toEqual({ message: 'api.swap.expired' });
    const vip = (await bases(alice)).find((x) => x.name === 'VIP')!;
    const [down] = await targets(alice, vip.id);
    const downgrade = (await start(alice, vip.id, down.id, 1)).json<StartSwapBody>().orderIdentifier;
    expect((await confirm(alice, downgrade)).statusCode).toBe(200);
    const again = await cancel(alice, downgrade);
    expect([again.statusCode, again.json()]).toEqual([409, { message: 'api.swap.already_confirmed' }]);
    for (const unknown of ['not-a-uuid', crypto.randomUUID()])
      expect((await cancel(alice, unknown)).json()).toEqual({ message: 'api.swap.not_found' });
  });
});

describe('confirming at the edges (issue 43: what session VI’s Stryker run let live)', () => {
  /** Gives `email` `extra` more tickets of Laneway Sessions' General Admission, as the seed gives alice one. */
  const moreGeneralAdmission = (email: string, extra: number) =>
    rawQuery(
      t.database.db,
      `insert into user_tickets (organisation_id, ticket_type_id, holder_id)
       select ut.organisation_id, ut.ticket_type_id, (select id from users where email = '${email}')
       from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id
       join users u on u.id = ut.holder_id, generate_series(1, ${extra})
       where u.email = 'alice@example.com' and e.name = 'Laneway Sessions' and tt.name = 'General Admission'`,
    );
  const cancel = (token: string, id: string) =>
    t.app.inject({ method: 'POST', url: `/v1/ticket_swap/cancel_swap/${id}`, headers: bearer(token) });
  const downgrade = async () => {
    const vip = (await bases(alice)).find((x) => x.name === 'VIP')!;
    const [down] = await targets(alice, vip.id);
    return (await start(alice, vip.id, down.id, 1)).json<StartSwapBody>().orderIdentifier;
  };

  it('an unpaid swap is expired from the very instant its reservation ends; a millisecond before, it confirms', async () => {
    // The access token is renewed 10 minutes in; a sign-in moves the test clock 61 s on, so the rest is counted after it.
    const late = await downgrade();
    t.clock.advance(10 * 60_000);
    alice = (await t.signIn('alice@example.com')).accessToken;
    t.clock.advance(5 * 60_000 - 61_000);
    expect((await confirm(alice, late)).json()).toEqual({ message: 'api.swap.expired' });
    const inTime = await downgrade();
    t.clock.advance(10 * 60_000);
    alice = (await t.signIn('alice@example.com')).accessToken;
    t.clock.advance(5 * 60_000 - 61_000 - 1);
    expect((await confirm(alice, inTime)).json()).toEqual({ swapType: 'DOWNGRADE', quantity: 1 });
  });

  it('once transfers close an unpaid swap is refused and changes nothing; a paid upgrade is still confirmed', async () => {
    const id = await downgrade();
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    const upgrade = (await start(alice, ga.id, target.id, 1)).json<StartSwapBody>().orderIdentifier;
    await t.app.services.swap.markPaid(upgrade);
    await rawQuery(
      t.database.db,
      `update events set transfers_close_at = '${t.clock.now().toISOString()}' where name = 'Laneway Sessions'`,
    );
    const before = await typesOf(alice);
    const refused = await confirm(alice, id);
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: 'api.ticket.transfers_closed' }]);
    expect(await typesOf(alice)).toEqual(before);
    expect((await confirm(alice, upgrade)).json()).toEqual({ swapType: 'UPGRADE', quantity: 1 });
  });

  it("confirming counts the other holders' live reservations against the stock: refused while bob's holds the last, confirmed once he cancels", async () => {
    await moreGeneralAdmission('bob@example.com', 1);
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    await rawQuery(
      t.database.db,
      `update ticket_types set stock = 2 where id = (select to_ticket_type_id from swap_pairs where id = ${target.id})`,
    );
    const mine = (await start(alice, ga.id, target.id, 1)).json<StartSwapBody>().orderIdentifier;
    const bobs = (await start(bob, ga.id, target.id, 1)).json<StartSwapBody>().orderIdentifier;
    await t.app.services.swap.markPaid(mine);
    // One VIP ticket goes elsewhere while both reservations are live: one is left, and bob's reservation holds it.
    await rawQuery(
      t.database.db,
      `update ticket_types set stock = 1 where id = (select to_ticket_type_id from swap_pairs where id = ${target.id})`,
    );
    const before = await typesOf(alice);
    const refused = await confirm(alice, mine);
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: 'api.swap.out_of_stock' }]);
    expect(await typesOf(alice)).toEqual(before);
    expect((await cancel(bob, bobs)).statusCode).toBe(204);
    expect((await confirm(alice, mine)).json()).toEqual({ swapType: 'UPGRADE', quantity: 1 });
  });

  it('an upgrade of two tickets out of three changes two; the third keeps its type', async () => {
    await moreGeneralAdmission('alice@example.com', 2);
    const ga = (await bases(alice)).find((x) => x.name === 'General Admission')!;
    const [target] = await targets(alice, ga.id);
    const id = (await start(alice, ga.id, target.id, 2)).json<StartSwapBody>().orderIdentifier;
    await t.app.services.swap.markPaid(id);
    expect((await confirm(alice, id)).json()).toEqual({ swapType: 'UPGRADE', quantity: 2 });
    const laneway = (await typesOf(alice)).filter((x) => x.startsWith('Laneway Sessions/'));
    expect(laneway.filter((x) => x === 'Laneway Sessions/VIP')).toHaveLength(3);
    expect(laneway.filter((x) => x === 'Laneway Sessions/General Admission')).toHaveLength(1);
  });
});
