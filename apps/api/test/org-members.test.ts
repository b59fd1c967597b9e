/**
 * Members and the console's sign-in (issue 21): the admin creates an organisation with its first owner; the owner
 * signs in with the holders' e-mail code, exchanges the holder token for a console token of the organisation,
 * adds staff and door members; every organiser route checks the role; a holder token never reaches organiser
 * routes and a console token never reaches holder routes; one organisation's member never reads another's data;
 * the last owner stays, also when the owner deletes their account (issue 39, item 6), and two owners deleting their
 * accounts at once cannot both go; an owner manages the organisation's API keys from the console (staff may not).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AuditPage } from '@tp/contract';
import type { DbOrTx } from '../src/db/client.js';
import { membersRepository } from '../src/modules/organisations/members.repository.js';
import { bearer, createTestApp, type TestApp } from './helper.js';

const ADMIN = 'admin-key-for-tests';
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ config: { adminKey: ADMIN } });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const createOrg = async (slug: string, ownerEmail?: string) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug, name: `Org ${slug}`, ...(ownerEmail ? { ownerEmail } : {}) },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id: number; apiKey: string }>();
};

/** Signs in by e-mail code and opens a console session on the organisation; returns the console token. */
const consoleToken = async (email: string, organisationId: number) => {
  const { accessToken } = await t.signIn(email);
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/console/session',
    headers: bearer(accessToken),
    payload: { organisationId },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ accessToken: string; expiresIn: number; membership: { role: string } }>();
};

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const event = {
  name: 'Harbour Nights',
  startsAt: '2027-03-01T18:00:00+11:00',
  endsAt: '2027-03-01T23:00:00+11:00',
  timeZone: 'Australia/Sydney',
  venue: 'Pier 2',
  city: 'Sydney',
  country: 'AU',
};

describe('members and console sessions', () => {
  it('the first owner signs in, lists their organisations and acts with a console token', async () => {
    const org = await createOrg('harbour', 'Owner@Harbour.example');
    const { accessToken } = await t.signIn('owner@harbour.example');
    const list = await call(accessToken, 'GET', '/v1/console/organisations');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([{ organisationId: org.id, slug: 'harbour', name: 'Org harbour', role: 'owner' }]);

    const session = await consoleToken('owner@harbour.example', org.id);
    expect(session.membership.role).toBe('owner');
    expect(session.expiresIn).toBeGreaterThan(0);
    const put = await call(session.accessToken, 'PUT', '/v1/org/events/evt-1', event);
    expect(put.statusCode, put.body).toBe(201);
    const members = await call(session.accessToken, 'GET', '/v1/org/members');
    expect(members.json()).toEqual([
      {
        id: expect.any(Number) as number,
        email: 'owner@harbour.example',
        role: 'owner',
        createdAt: expect.any(String) as string,
      },
    ]);
  });

  it('roles open their areas only: staff events not members nor door keys, door door keys only', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    for (const [email, role] of [
      ['staff@harbour.example', 'staff'],
      ['door@harbour.example', 'door'],
    ]) {
      const r = await call(org.apiKey, 'POST', '/v1/org/members', { email, role });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ email, role });
    }
    const staff = (await consoleToken('staff@harbour.example', org.id)).accessToken;
    const door = (await consoleToken('door@harbour.example', org.id)).accessToken;

    expect((await call(staff, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    expect((await call(staff, 'GET', '/v1/org/events')).statusCode).toBe(200);
    expect((await call(staff, 'GET', '/v1/org/webhooks')).statusCode).toBe(200);
    expect((await call(staff, 'GET', '/v1/org/organisation')).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', '/v1/org/members'],
      ['POST', '/v1/org/members', { email: 'x@harbour.example', role: 'owner' }],
      ['PATCH', '/v1/org/organisation', { name: 'Taken over' }],
      ['GET', '/v1/org/door-keys'],
    ] as const) {
      const r = await call(staff, method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json()).toMatchObject({ message: 'api.org.role_forbidden', detail: expect.any(String) as string });
    }

    const key = await call(door, 'POST', '/v1/org/door-keys', { name: 'Gate A' });
    expect(key.statusCode, key.body).toBe(201);
    expect((await call(door, 'GET', '/v1/org/door-keys')).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', '/v1/org/events'],
      ['GET', '/v1/org/tickets'],
      ['PUT', '/v1/org/events/evt-2'],
      ['GET', '/v1/org/webhooks'],
      ['GET', '/v1/org/members'],
    ] as const) {
      const r = await call(door, method, url, method === 'PUT' ? event : undefined);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('a holder token never reaches organiser routes, nor a console token holder routes', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const { accessToken } = await t.signIn('owner@harbour.example');
    for (const url of ['/v1/org/events', '/v1/org/organisation', '/v1/org/members']) {
      const r = await call(accessToken, 'GET', url);
      expect(r.statusCode, url).toBe(401);
      expect(r.json()).toMatchObject({ message: 'api.unauthorized' });
    }
    const session = await consoleToken('owner@harbour.example', org.id);
    for (const url of ['/v1/auth/me', '/v1/console/organisations']) {
      expect((await call(session.accessToken, 'GET', url)).statusCode, url).toBe(401);
    }
  });

  it("one organisation's member never reaches another's data", async () => {
    const harbour = await createOrg('harbour', 'owner@harbour.example');
    const river = await createOrg('river', 'owner@river.example');
    expect((await call(river.apiKey, 'PUT', '/v1/org/events/river-evt', event)).statusCode).toBe(201);
    // Not a member of river: no console session for it.
    const { accessToken } = await t.signIn('owner@harbour.example');
    const refused = await call(accessToken, 'POST', '/v1/console/session', { organisationId: river.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'api.org.not_a_member' });
    // A harbour console token reads harbour only: river's event is not found, lists are empty.
    const token = (await consoleToken('owner@harbour.example', harbour.id)).accessToken;
    expect((await call(token, 'GET', '/v1/org/events/river-evt')).statusCode).toBe(404);
    expect((await call(token, 'GET', '/v1/org/events')).json()).toMatchObject({ items: [] });
    const riverMembers = (await call(river.apiKey, 'GET', '/v1/org/members')).json<{ id: number }[]>();
    expect((await call(token, 'DELETE', `/v1/org/members/${riverMembers[0].id}`)).statusCode).toBe(404);
    expect((await call(river.apiKey, 'GET', '/v1/org/members')).json()).toHaveLength(1);
  });

  it('a removed member loses access at the next request; the last owner cannot be removed', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const staff = await call(org.apiKey, 'POST', '/v1/org/members', { email: 'staff@harbour.example', role: 'staff' });
    const staffToken = (await consoleToken('staff@harbour.example', org.id)).accessToken;
    expect((await call(staffToken, 'GET', '/v1/org/events')).statusCode).toBe(200);
    const again = await call(org.apiKey, 'POST', '/v1/org/members', { email: 'staff@harbour.example', role: 'door' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'api.org.member_exists' });

    expect((await call(org.apiKey, 'DELETE', `/v1/org/members/${staff.json<{ id: number }>().id}`)).statusCode).toBe(
      204,
    );
    expect((await call(staffToken, 'GET', '/v1/org/events')).statusCode).toBe(401);

    const owner = (await call(org.apiKey, 'GET', '/v1/org/members')).json<{ id: number }[]>()[0];
    const last = await call(org.apiKey, 'DELETE', `/v1/org/members/${owner.id}`);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ message: 'api.org.last_owner' });
    // With a second owner, the first may go.
    await call(org.apiKey, 'POST', '/v1/org/members', { email: 'second@harbour.example', role: 'owner' });
    expect((await call(org.apiKey, 'DELETE', `/v1/org/members/${owner.id}`)).statusCode).toBe(204);
    expect((await call(org.apiKey, 'DELETE', '/v1/org/members/999999')).statusCode).toBe(404);
  });

  it('two owners removing each other at once: one stays', async () => {
    const org = await createOrg('harbour', 'a@harbour.example');
    await call(org.apiKey, 'POST', '/v1/org/members', { email: 'b@harbour.example', role: 'owner' });
    const ids = (await call(org.apiKey, 'GET', '/v1/org/members')).json<{ id: number }[]>().map((m) => m.id);
    const answers = await Promise.all(ids.map((id) => call(org.apiKey, 'DELETE', `/v1/org/members/${id}`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([204, 409]);
    expect((await call(org.apiKey, 'GET', '/v1/org/members')).json()).toHaveLength(1);
  });

  it('signing out ends the console token too', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const { accessToken } = await t.signIn('owner@harbour.example');
    const session = await call(accessToken, 'POST', '/v1/console/session', { organisationId: org.id });
    const token = session.json<{ accessToken: string }>().accessToken;
    expect((await call(token, 'GET', '/v1/org/events')).statusCode).toBe(200);
    expect((await call(accessToken, 'GET', '/v1/auth/logout')).statusCode).toBe(204);
    expect((await call(token, 'GET', '/v1/org/events')).statusCode).toBe(401);
  });

  it('an owner creates, lists and revokes API keys from the console; staff may not', async () => {
    const org = await createOrg('harbour', 'owner@harbour.example');
    const owner = (await consoleToken('owner@harbour.example', org.id)).accessToken;
    const created = await call(owner, 'POST', '/v1/org/api-keys');
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ id: number; prefix: string; apiKey: string }>();
    expect(key.apiKey.startsWith(`${key.prefix}_`)).toBe(true);
    expect((await call(key.apiKey, 'PUT', '/v1/org/events/evt-1', event)).statusCode).toBe(201);
    // The first key still works: a console key is one more, not a rotation.
    expect((await call(org.apiKey, 'GET', '/v1/org/events')).statusCode).toBe(200);
    const list = await call(owner, 'GET', '/v1/org/api-keys');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(key.apiKey);
    expect(list.json<{ id: number; prefix: string; revokedAt: string | null }[]>()).toHaveLength(2);

    expect(
      (await call(owner, 'POST', '/v1/org/members', { email: 'staff@harbour.example', role: 'staff' })).statusCode,
    ).toBe(201);
    const staff = (await consoleToken('staff@harbour.example', org.id)).accessToken;
    for (const [method, url] of [
      ['GET', '/v1/org/api-keys'],
      ['POST', '/v1/org/api-keys'],
      ['DELETE', `/v1/org/api-keys/${key.id}`],
    ] as const) {
      const r = await call(staff, method, url);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json()).toEqual({ message: 'api.org.role_forbidden', detail: expect.any(String) as string });
    }

    expect((await call(owner, 'DELETE', `/v1/org/api-keys/${key.id}`)).statusCode).toBe(204);
    expect((await call(key.apiKey, 'GET', '/v1/org/events')).statusCode).toBe(401);
    expect(
      (await call(owner, 'GET', '/v1/org/api-keys')).json<{ id: number; revokedAt: string | null }[]>(),
    ).toContainEqual(expect.objectContaining({ id: key.id, revokedAt: expect.any(String) as string }));
    // Another organisation's key id is not found.
    const other = await createOrg('bravo', 'owner@bravo.example');
    const otherOwner = (await consoleToken('owner@bravo.example', other.id)).accessToken;
    expect((await call(otherOwner, 'DELETE', `/v1/org/api-keys/${key.id}`)).json()).toMatchObject({
      message: 'api.org.api_key_not_found',
    });
  });
});

/**
 * A meeting point for `n` callers: each waits until all have arrived, or `ms` at most (a caller held elsewhere,
 * e.g. behind a row lock, never arrives while the others wait).
 */
function meetingPoint(n: number, ms: number) {
  let arrived = 0;
  let all!: () => void;
  const everyone = new Promise<void>((resolve) => (all = resolve));
  return async () => {
    if (++arrived >= n) all();
    await Promise.race([everyone, new Promise((resolve) => setTimeout(resolve, ms))]);
  };
}

describe('the last owner and account deletion (issue 39, item 6)', () => {
  const deleteAccount = (accessToken: string) =>
    t.app.inject({
      method: 'DELETE',
      url: '/v1/auth/account',
      headers: bearer(accessToken),
      remoteAddress: '192.0.2.9',
    });
  const membersOf = async (apiKey: string) =>
    (await call(apiKey, 'GET', '/v1/org/members')).json<{ email: string; role: string }[]>();

  it('the only owner cannot delete their account; with a second owner they can, and leave the organisation', async () => {
    const org = await createOrg('harbour', 'a@harbour.example');
    const other = await createOrg('river', 'a@harbour.example');
    const a = await t.signIn('a@harbour.example');
    const refused = await deleteAccount(a.accessToken);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({ message: 'api.account.last_owner' });
    // Nothing changed: still the owner, still signs in to the console.
    expect((await consoleToken('a@harbour.example', org.id)).membership.role).toBe('owner');

    // Another owner in one organisation is not enough: a is still river's only owner.
    await call(org.apiKey, 'POST', '/v1/org/members', { email: 'b@harbour.example', role: 'owner' });
    expect((await deleteAccount(a.accessToken)).json()).toEqual({ message: 'api.account.last_owner' });
    expect(await membersOf(org.apiKey)).toHaveLength(2);

    await call(other.apiKey, 'POST', '/v1/org/members', { email: 'c@river.example', role: 'owner' });
    const gone = await deleteAccount(a.accessToken);
    expect(gone.statusCode, gone.body).toBe(204);
    // a left both organisations (no member row of an erased account stays to count as an owner).
    expect((await membersOf(org.apiKey)).map((m) => [m.email, m.role])).toEqual([['b@harbour.example', 'owner']]);
    expect((await membersOf(other.apiKey)).map((m) => m.email)).toEqual(['c@river.example']);
    const log = (await call(org.apiKey, 'GET', '/v1/org/audit-log?action=member.removed')).json<AuditPage>();
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({
      actor: { kind: 'console_member' },
      ip: '192.0.2.9',
      detail: { role: 'owner', reason: 'account_deleted' },
    });

    // b is now the only owner of harbour: refused too.
    const b = await t.signIn('b@harbour.example');
    expect((await deleteAccount(b.accessToken)).json()).toEqual({ message: 'api.account.last_owner' });
    // A staff member's account goes, and leaves the organisation.
    await call(org.apiKey, 'POST', '/v1/org/members', { email: 's@harbour.example', role: 'staff' });
    const s = await t.signIn('s@harbour.example');
    expect((await deleteAccount(s.accessToken)).statusCode).toBe(204);
    expect((await membersOf(org.apiKey)).map((m) => m.email)).toEqual(['b@harbour.example']);
  });

  /**
   * Two owners, each deleting their account at the same moment: the deletions meet after reading the owners
   * (`meetingPoint`), so without the lock both read two owners and both go. With the lock the second waits in
   * its `FOR UPDATE` until the first commits, then sees one owner. The control replaces the locking read by the
   * same read without `FOR UPDATE` and must lose an owner on PostgreSQL (PGlite's one connection runs one
   * transaction at a time, so there the control cannot race).
   */
  type MemberRole = { id: number; userId: number; role: string };
  const race = async (locked: boolean) => {
    const org = await createOrg('harbour', 'a@harbour.example');
    await call(org.apiKey, 'POST', '/v1/org/members', { email: 'b@harbour.example', role: 'owner' });
    const tokens = [
      (await t.signIn('a@harbour.example')).accessToken,
      (await t.signIn('b@harbour.example')).accessToken,
    ];
    const meet = meetingPoint(2, 400);
    const lockMembersOf = membersRepository.lockMembersOf.bind(membersRepository);
    vi.spyOn(membersRepository, 'lockMembersOf').mockImplementation(async (tx: DbOrTx, organisationId: number) => {
      const rows = locked
        ? await lockMembersOf(tx, organisationId)
        : (
            (await tx.execute(
              sql`select id, user_id as "userId", role from organisation_members where organisation_id = ${organisationId} order by id`,
            )) as { rows: MemberRole[] }
          ).rows;
      await meet();
      return rows;
    });
    const answers = await Promise.all(tokens.map(deleteAccount));
    vi.restoreAllMocks();
    return { statuses: answers.map((r) => r.statusCode).sort(), owners: await membersOf(org.apiKey) };
  };

  it('two owners deleting their accounts at once: one goes, the other is refused (member rows locked)', async () => {
    const { statuses, owners } = await race(true);
    expect(statuses).toEqual([204, 409]);
    expect(owners).toHaveLength(1);
  });

  it('control: without the lock both deletions succeed on PostgreSQL and the organisation is left with no owner', async () => {
    const { statuses, owners } = await race(false);
    if (t.database.kind === 'pg') {
      expect(statuses).toEqual([204, 204]);
      expect(owners).toHaveLength(0);
    } else {
      expect(statuses).toEqual([204, 409]);
    }
  });
});
