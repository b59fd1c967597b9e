/**
 * The audit trail (issue 25, decision 032): every organiser and platform admin change is recorded with who made
 * it (platform admin, API key id, console member), what, on which resource, when and from which IP, in the
 * change's transaction (a refused change leaves no entry); GET /v1/org/audit-log answers owners only, pages by
 * cursor, filters by action and since, never shows another organisation's entries; housekeeping deletes entries
 * older than AUDIT_RETENTION_DAYS. An import's entry names the tickets it issued or moved (capped), and an entry
 * keeps its actor's label after the actor deletes their account (issue 39, item 7).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_IMPORT_TICKETS_NAMED, type AuditEntry, type AuditPage } from '@tp/contract';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
const DAY = 24 * 3600 * 1000;
const ADMIN_IP = '198.51.100.4';
const KEY_IP = '203.0.113.7';
const MEMBER_IP = '192.0.2.44';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN, auditRetentionDays: 30 } });
});
afterEach(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object | string, ip = KEY_IP) =>
  t.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { ...bearer(token), ...(typeof payload === 'string' ? { 'content-type': 'text/csv' } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });

const createOrg = async (slug: string, ownerEmail?: string) => {
  const r = await call(ADMIN, 'POST', '/v1/admin/organisations', { slug, name: `Org ${slug}`, ownerEmail }, ADMIN_IP);
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id: number; apiKey: string }>();
};

const consoleToken = async (email: string, organisationId: number) => {
  const { accessToken } = await t.signIn(email);
  const r = await call(accessToken, 'POST', '/v1/console/session', { organisationId });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ accessToken: string }>().accessToken;
};

/** Every entry of the log as `token` reads it, newest first (follows the cursor). */
const wholeLog = async (token: string, query = '') => {
  const all: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const sep = query || cursor ? '?' : '';
    const params = [query, cursor ? `cursor=${cursor}` : ''].filter(Boolean).join('&');
    const r = await call(token, 'GET', `/v1/org/audit-log${sep}${params}`);
    expect(r.statusCode, r.body).toBe(200);
    const page = r.json<AuditPage>();
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
};
const auditRows = async (organisationId: number) =>
  Number(
    (
      await rawQuery<{ n: string }>(
        t.database.db,
        `select count(*) as n from audit_log where organisation_id = ${organisationId}`,
      )
    ).rows[0].n,
  );

const event = {
  name: 'Harbour Nights',
  startsAt: '2027-03-01T18:00:00+11:00',
  endsAt: '2027-03-01T23:00:00+11:00',
  timeZone: 'Australia/Sydney',
  venue: 'Pier 2',
  city: 'Sydney',
  country: 'AU',
};
const ticketType = (extra: Record<string, unknown> = {}) => ({
  eventExternalId: 'evt-1',
  name: 'General Admission',
  priceCents: 8900,
  currency: 'AUD',
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  ...extra,
});

describe('audit trail', () => {
  it('records the platform admin: the organisation, its keys and first owner, from its IP', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const rotated = await call(ADMIN, 'POST', `/v1/admin/organisations/${org.id}/api-keys`, undefined, ADMIN_IP);
    expect(rotated.statusCode, rotated.body).toBe(201);
    const { id: newKeyId, apiKey } = rotated.json<{ id: number; apiKey: string }>();
    const keys = (await call(ADMIN, 'GET', `/v1/admin/organisations/${org.id}/api-keys`)).json<{ id: number }[]>();
    const firstKeyId = keys.find((k) => k.id !== newKeyId)!.id;
    const revoke = () =>
      call(ADMIN, 'DELETE', `/v1/admin/organisations/${org.id}/api-keys/${firstKeyId}`, undefined, ADMIN_IP);
    expect((await revoke()).statusCode).toBe(204);
    expect((await revoke()).statusCode).toBe(204); // idempotent: nothing changed, nothing recorded

    const log = await wholeLog(apiKey);
    expect(log.map((e) => [e.action, e.resourceType])).toEqual([
      ['api_key.revoked', 'api_key'],
      ['api_key.created', 'api_key'],
      ['member.added', 'member'],
      ['api_key.created', 'api_key'],
      ['organisation.created', 'organisation'],
    ]);
    for (const e of log) {
      expect(e.actor).toEqual({ kind: 'platform_admin', id: null, label: null });
      expect(e.ip).toBe(ADMIN_IP);
      expect(Date.parse(e.at)).toBe(t.clock.now().getTime());
    }
    expect(log[0].resourceId).toBe(String(firstKeyId));
    expect(log[0].detail).toEqual({ prefix: expect.stringMatching(/^tpk_/) as string });
    expect(log[4]).toMatchObject({ resourceId: String(org.id), detail: { slug: 'harbour' } });
    // The key's secret part (after `tpk_<8>_`) is in no entry.
    expect(JSON.stringify(log)).not.toContain(apiKey.slice('tpk_12345678_'.length));
  });

  it('records an API key (its id and prefix) for every organiser write; unchanged upserts record nothing', async () => {
    const org = await createOrg('harbour');
    const key = org.apiKey;
    const [{ id: keyId, prefix }] = (await call(ADMIN, 'GET', `/v1/admin/organisations/${org.id}/api-keys`)).json<
      { id: number; prefix: string }[]
    >();
    const steps: [Method, string, (object | string)?][] = [
      ['PUT', '/v1/org/events/evt-1', event],
      ['PUT', '/v1/org/events/evt-1', event], // unchanged
      ['PUT', '/v1/org/events/evt-1', { ...event, venue: 'Pier 3' }],
      ['PUT', '/v1/org/ticket-types/ga', ticketType()],
      ['PUT', '/v1/org/ticket-types/ga', ticketType({ priceCents: 9900 })],
      ['PUT', '/v1/org/tickets/T-1', { ticketTypeExternalId: 'ga', holderEmail: 'alex@example.com' }],
      ['PUT', '/v1/org/tickets/T-1', { ticketTypeExternalId: 'ga', holderEmail: 'sam@example.com' }],
      ['DELETE', '/v1/org/tickets/T-1'],
      ['DELETE', '/v1/org/tickets/T-1'], // already revoked
      [
        'POST',
        '/v1/org/tickets/import?dryRun=true',
        'externalId,ticketTypeExternalId,holderEmail\nT-2,ga,kim@example.com\n',
      ],
      ['POST', '/v1/org/tickets/import', 'externalId,ticketTypeExternalId,holderEmail\nT-2,ga,kim@example.com\n'],
      ['PATCH', '/v1/org/organisation', { name: 'Harbour Live', primaryColor: '#0055aa' }],
      // The same values again (the console sends its whole form): nothing changed, no entry (issue 41 point 12).
      ['PATCH', '/v1/org/organisation', { name: 'Harbour Live', primaryColor: '#0055AA' }],
      ['POST', '/v1/org/webhooks', { url: 'https://hooks.harbour.example/in?token=secret', events: ['ticket.issued'] }],
      ['POST', '/v1/org/door-keys', { name: 'Gate A', eventExternalIds: ['evt-1'] }],
    ];
    for (const [method, url, body] of steps) {
      const r = await call(key, method, url, body);
      expect(r.statusCode, `${method} ${url} ${r.body}`).toBeLessThan(300);
    }
    const webhookId = (await call(key, 'GET', '/v1/org/webhooks')).json<{ id: number }[]>()[0].id;
    const doorKeyId = (await call(key, 'GET', '/v1/org/door-keys')).json<{ id: number }[]>()[0].id;
    expect((await call(key, 'DELETE', `/v1/org/door-keys/${doorKeyId}`)).statusCode).toBe(204);
    // A ticket issued now has a delivery for the endpoint; sending it again is recorded too.
    const issued = await call(key, 'PUT', '/v1/org/tickets/T-5', {
      ticketTypeExternalId: 'ga',
      holderEmail: 'lee@example.com',
    });
    expect(issued.statusCode).toBe(201);
    const deliveries = (await call(key, 'GET', `/v1/org/webhooks/${webhookId}/deliveries`)).json<{
      items: { id: number }[];
    }>();
    const deliveryId = deliveries.items[0].id;
    const again = await call(key, 'POST', `/v1/org/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
    expect(again.statusCode, again.body).toBeLessThan(300);
    expect((await call(key, 'DELETE', `/v1/org/webhooks/${webhookId}`)).statusCode).toBe(204);

    const log = (await wholeLog(key)).filter((e) => e.actor.kind === 'api_key').reverse();
    expect(log.map((e) => [e.action, e.resourceId])).toEqual([
      ['event.created', 'evt-1'],
      ['event.updated', 'evt-1'],
      ['ticket_type.created', 'ga'],
      ['ticket_type.updated', 'ga'],
      ['ticket.issued', 'T-1'],
      ['ticket.reissued', 'T-1'],
      ['ticket.revoked', 'T-1'],
      ['import.completed', expect.any(String)],
      ['branding.updated', String(org.id)],
      ['webhook.created', String(webhookId)],
      ['door_key.created', String(doorKeyId)],
      ['door_key.revoked', String(doorKeyId)],
      ['ticket.issued', 'T-5'],
      ['webhook.redelivered', String(webhookId)],
      ['webhook.deleted', String(webhookId)],
    ]);
    for (const e of log) expect(e).toMatchObject({ actor: { kind: 'api_key', id: keyId, label: prefix }, ip: KEY_IP });
    const by = (action: string) => log.find((e) => e.action === action)!.detail;
    // A change of place tells the holders unless the organiser says not to (issue 46): the entry says whether it did.
    expect(by('event.updated')).toEqual({ fields: ['venue'], notified: true });
    expect(by('import.completed')).toEqual({
      rows: 1,
      created: 1,
      updated: 0,
      unchanged: 0,
      tickets: [
        {
          externalId: 'T-2',
          userTicketId: expect.any(Number) as number,
          change: 'issued',
          holderId: expect.any(Number) as number,
        },
      ],
      ticketsNotNamed: 0,
    });
    // A ticket moved by PUT names whose it is and whose it was (the thirteenth re-run of issue 39: only its type).
    const issuedT1 = by('ticket.issued') as { holderId: number };
    expect(issuedT1).toEqual({ ticketTypeExternalId: 'ga', holderId: expect.any(Number) as number });
    expect(by('ticket.reissued')).toEqual({
      ticketTypeExternalId: 'ga',
      holderId: expect.any(Number) as number,
      fromHolderId: issuedT1.holderId,
    });
    expect((by('ticket.reissued') as { holderId: number }).holderId).not.toBe(issuedT1.holderId);
    expect(by('branding.updated')).toEqual({ fields: ['name', 'primaryColor'] });
    expect(by('webhook.created')).toEqual({ host: 'hooks.harbour.example', events: ['ticket.issued'] });
    expect(by('webhook.redelivered')).toMatchObject({ deliveryId, eventType: 'ticket.issued' });
    // No holder e-mail, no webhook secret or query, no key in any entry.
    const text = JSON.stringify(log);
    for (const secret of ['alex@', 'sam@', 'kim@', 'lee@', 'token=secret', 'whsec_', key])
      expect(text).not.toContain(secret);
  });

  it('records a console member by account id and e-mail; staff and door members may not read the log', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const owner = await consoleToken('owner@harbour.example', org.id);
    const added = await call(
      owner,
      'POST',
      '/v1/org/members',
      { email: 'staff@harbour.example', role: 'staff' },
      MEMBER_IP,
    );
    expect(added.statusCode, added.body).toBe(201);
    const door = await call(
      owner,
      'POST',
      '/v1/org/members',
      { email: 'door@harbour.example', role: 'door' },
      MEMBER_IP,
    );
    expect(door.statusCode).toBe(201);
    const staff = await consoleToken('staff@harbour.example', org.id);
    expect((await call(staff, 'PUT', '/v1/org/events/evt-1', event, MEMBER_IP)).statusCode).toBe(201);
    const doorToken = await consoleToken('door@harbour.example', org.id);
    for (const token of [staff, doorToken]) {
      const r = await call(token, 'GET', '/v1/org/audit-log');
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ message: 'api.org.role_forbidden' });
    }
    const removed = await call(
      owner,
      'DELETE',
      `/v1/org/members/${door.json<{ id: number }>().id}`,
      undefined,
      MEMBER_IP,
    );
    expect(removed.statusCode).toBe(204);

    const log = (await wholeLog(owner)).filter((e) => e.actor.kind === 'console_member');
    const ownerId = Number(
      (await rawQuery<{ id: number }>(t.database.db, `select id from users where email = 'owner@harbour.example'`))
        .rows[0].id,
    );
    expect(log.map((e) => [e.action, e.actor.label, e.ip])).toEqual([
      ['member.removed', 'owner@harbour.example', MEMBER_IP],
      ['event.created', 'staff@harbour.example', MEMBER_IP],
      ['member.added', 'owner@harbour.example', MEMBER_IP],
      ['member.added', 'owner@harbour.example', MEMBER_IP],
    ]);
    expect(log[0].actor.id).toBe(ownerId);
    expect(log[0].detail).toMatchObject({ role: 'door', userId: expect.any(Number) as number });
    // The member added is named by e-mail, as the console's member list shows it (issue 41 point 12, re-walk).
    expect(log.filter((e) => e.action === 'member.added').map((e) => e.detail.email)).toEqual([
      'door@harbour.example',
      'staff@harbour.example',
    ]);
  });

  it('an import names each ticket it issued or moved, with the holders’ account ids (issue 39, item 7)', async () => {
    const org = await createOrg('harbour');
    const key = org.apiKey;
    expect((await call(key, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    expect((await call(key, 'PUT', '/v1/org/ticket-types/vip', ticketType({ name: 'VIP' }))).statusCode).toBe(201);
    const vip = { ticketTypeExternalId: 'vip', holderEmail: 'alex@example.com' };
    expect((await call(key, 'PUT', '/v1/org/tickets/VIP-1', vip)).statusCode).toBe(201);
    expect((await call(key, 'PUT', '/v1/org/tickets/VIP-2', vip)).statusCode).toBe(201);
    // VIP-1 moves to a friend, VIP-2 stays, VIP-3 is new.
    const csv =
      'externalId,ticketTypeExternalId,holderEmail\nVIP-1,vip,friend@example.com\nVIP-2,vip,alex@example.com\nVIP-3,vip,kim@example.com\n';
    const r = await call(key, 'POST', '/v1/org/tickets/import', csv);
    expect(r.statusCode, r.body).toBe(200);
    const idOf = async (email: string) =>
      Number(
        (await rawQuery<{ id: number }>(t.database.db, `select id from users where email = '${email}'`)).rows[0].id,
      );
    const ticketId = async (externalId: string) =>
      Number(
        (
          await rawQuery<{ id: number }>(
            t.database.db,
            `select id from user_tickets where external_id = '${externalId}'`,
          )
        ).rows[0].id,
      );
    const [entry] = await wholeLog(key, 'action=import.completed');
    expect(entry.detail).toEqual({
      rows: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      tickets: [
        {
          externalId: 'VIP-1',
          userTicketId: await ticketId('VIP-1'),
          change: 'reissued',
          holderId: await idOf('friend@example.com'),
          fromHolderId: await idOf('alex@example.com'),
        },
        {
          externalId: 'VIP-3',
          userTicketId: await ticketId('VIP-3'),
          change: 'issued',
          holderId: await idOf('kim@example.com'),
        },
      ],
      ticketsNotNamed: 0,
    });
    expect(JSON.stringify(entry)).not.toContain('@example.com');
  });

  it('an import of more tickets than AUDIT_IMPORT_TICKETS_NAMED names the first ones and counts the rest', async () => {
    const org = await createOrg('harbour');
    const key = org.apiKey;
    expect((await call(key, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    expect((await call(key, 'PUT', '/v1/org/ticket-types/ga', ticketType())).statusCode).toBe(201);
    const n = AUDIT_IMPORT_TICKETS_NAMED + 5;
    const lines = Array.from({ length: n }, (_, i) => `T-${i + 1},ga,holder${i + 1}@example.com`);
    const r = await call(
      key,
      'POST',
      '/v1/org/tickets/import',
      `externalId,ticketTypeExternalId,holderEmail\n${lines.join('\n')}\n`,
    );
    expect(r.statusCode, r.body).toBe(200);
    const [entry] = await wholeLog(key, 'action=import.completed');
    const detail = entry.detail as { created: number; tickets: { externalId: string }[]; ticketsNotNamed: number };
    expect(detail.created).toBe(n);
    expect(detail.tickets.map((x) => x.externalId)).toEqual(
      Array.from({ length: AUDIT_IMPORT_TICKETS_NAMED }, (_, i) => `T-${i + 1}`),
    );
    expect(detail.ticketsNotNamed).toBe(5);
  });

  it('keeps a member’s e-mail as the label of their entries after they delete their account (issue 39, item 7)', async () => {
    const org = await createOrg('harbour', 'a@harbour.example');
    expect(
      (await call(org.apiKey, 'POST', '/v1/org/members', { email: 'b@harbour.example', role: 'owner' })).statusCode,
    ).toBe(201);
    const a = await consoleToken('a@harbour.example', org.id);
    expect((await call(a, 'PUT', '/v1/org/events/evt-1', event, MEMBER_IP)).statusCode).toBe(201);
    const { accessToken } = await t.signIn('a@harbour.example');
    const deleted = await call(accessToken, 'DELETE', '/v1/auth/account', undefined, MEMBER_IP);
    expect(deleted.statusCode, deleted.body).toBe(204);

    const log = (await wholeLog(org.apiKey)).filter((e) => e.actor.kind === 'console_member');
    expect(log.map((e) => [e.action, e.actor.label])).toEqual([
      ['member.removed', 'a@harbour.example'],
      ['event.created', 'a@harbour.example'],
    ]);
    expect(log[0].detail).toMatchObject({ role: 'owner', reason: 'account_deleted' });
    // The erasure itself still happened: the account's e-mail is gone from it.
    const emails = await rawQuery<{ email: string }>(t.database.db, `select email from users where email like 'a@%'`);
    expect(emails.rows).toEqual([]);
  });

  it('a refused change leaves no entry (the entry is written in the change’s transaction)', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    expect((await call(org.apiKey, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    const before = await auditRows(org.id);
    // The type is inserted, then an unknown swap target refuses the request: type and entry roll back together.
    const refused = await call(
      org.apiKey,
      'PUT',
      '/v1/org/ticket-types/ga',
      ticketType({ swapTargets: [{ ticketTypeExternalId: 'nope' }] }),
    );
    expect(refused.statusCode).toBe(404);
    const types = await rawQuery<{ n: string }>(
      t.database.db,
      `select count(*) as n from ticket_types where external_id = 'ga'`,
    );
    expect(Number(types.rows[0].n)).toBe(0);
    // The member's account is created, then the insert finds it a member already.
    expect(
      (await call(org.apiKey, 'POST', '/v1/org/members', { email: 'owner@harbour.example', role: 'staff' })).statusCode,
    ).toBe(409);
    expect((await call(org.apiKey, 'DELETE', '/v1/org/door-keys/999')).statusCode).toBe(404);
    expect(
      (
        await call(org.apiKey, 'PUT', '/v1/org/tickets/T-9', {
          ticketTypeExternalId: 'nope',
          holderEmail: 'a@example.com',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          org.apiKey,
          'POST',
          '/v1/org/tickets/import',
          'externalId,ticketTypeExternalId,holderEmail\nT-3,nope,a@example.com\n',
        )
      ).statusCode,
    ).toBe(422);
    expect(await auditRows(org.id)).toBe(before);
  });

  it('an entry that cannot be written takes its change with it (same transaction)', async () => {
    const org = await createOrg('harbour');
    // A trigger refuses the entry of one event: the event's insert must roll back with it.
    await rawQuery(
      t.database.db,
      `create function refuse_audit() returns trigger language plpgsql as $$
       begin if new.resource_id = 'evt-refused' then raise exception 'audit refused'; end if; return new; end $$`,
    );
    await rawQuery(
      t.database.db,
      `create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`,
    );
    try {
      const r = await call(org.apiKey, 'PUT', '/v1/org/events/evt-refused', event);
      expect(r.statusCode).toBe(500);
      const events = await rawQuery<{ n: string }>(
        t.database.db,
        `select count(*) as n from events where external_id = 'evt-refused'`,
      );
      expect(Number(events.rows[0].n)).toBe(0);
      expect((await call(org.apiKey, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
      expect((await wholeLog(org.apiKey)).map((e) => e.resourceId)).toContain('evt-1');
    } finally {
      // The database goes back to the pool of emptied ones (helper.ts): without the trigger, as the template is.
      await rawQuery(t.database.db, 'drop trigger refuse_audit on audit_log');
      await rawQuery(t.database.db, 'drop function refuse_audit()');
    }
  });

  it('never shows another organisation’s entries; filters by action and since; pages by cursor', async () => {
    const a = await createOrg('harbour');
    const b = await createOrg('lights');
    for (let i = 1; i <= 5; i++) {
      t.clock.advance(60_000);
      expect((await call(a.apiKey, 'PUT', `/v1/org/events/evt-${i}`, event)).statusCode).toBe(201);
    }
    expect((await call(b.apiKey, 'PUT', '/v1/org/events/b-evt', event)).statusCode).toBe(201);

    const ofB = await wholeLog(b.apiKey);
    expect(ofB.map((e) => e.action)).toEqual(['event.created', 'api_key.created', 'organisation.created']);
    expect(ofB.some((e) => e.resourceId.startsWith('evt-'))).toBe(false);

    const first = (await call(a.apiKey, 'GET', '/v1/org/audit-log?limit=2&action=event.created')).json<AuditPage>();
    expect(first.items.map((e) => e.resourceId)).toEqual(['evt-5', 'evt-4']);
    const second = (
      await call(a.apiKey, 'GET', `/v1/org/audit-log?limit=2&action=event.created&cursor=${first.nextCursor}`)
    ).json<AuditPage>();
    expect(second.items.map((e) => e.resourceId)).toEqual(['evt-3', 'evt-2']);
    // B's cursor position does not open A's entries to B.
    const crossed = (await call(b.apiKey, 'GET', `/v1/org/audit-log?cursor=${first.nextCursor}`)).json<AuditPage>();
    expect(crossed.items.every((e) => !e.resourceId.startsWith('evt-'))).toBe(true);

    const since = new Date(t.clock.now().getTime() - 90_000).toISOString();
    const recent = await wholeLog(a.apiKey, `since=${encodeURIComponent(since)}`);
    expect(recent.map((e) => e.resourceId)).toEqual(['evt-5', 'evt-4']);

    for (const q of ['cursor=nope', 'action=ticket.eaten', 'since=yesterday', 'limit=0']) {
      const r = await call(a.apiKey, 'GET', `/v1/org/audit-log?${q}`);
      expect(r.statusCode, q).toBe(400);
    }
  });

  it('housekeeping deletes entries older than AUDIT_RETENTION_DAYS', async () => {
    const org = await createOrg('harbour');
    t.clock.advance(20 * DAY);
    expect((await call(org.apiKey, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    t.clock.advance(9 * DAY);
    expect(await t.app.services.housekeeping.runOnce()).toMatchObject({ auditLog: 0 });
    t.clock.advance(2 * DAY); // the organisation's creation is now 31 days old, the event 11
    expect(await t.app.services.housekeeping.runOnce()).toMatchObject({ auditLog: 2 });
    expect((await wholeLog(org.apiKey)).map((e) => e.action)).toEqual(['event.created']);
  });
});
