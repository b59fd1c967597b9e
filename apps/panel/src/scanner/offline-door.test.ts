import { describe, expect, it, vi } from 'vitest';
import type { AdmissionsPage, RecordedScan, SyncResponse } from '@tp/contract/access';
import { walletTotp } from '@tp/contract/wallet-totp';
import {
  offlineDoor,
  type DoorStatus,
  type DoorStore,
  type PassVerifier,
  type QueuedCheckIn,
  type Snapshot,
} from './offline-door';

const KEY_PUB = 'pub-key';
const TOTP_SECRET = 'ab'.repeat(20);
const EVENT = 7;
/**
 * A verifier for the test: `ok:<userId>` (a holder's pass), `ok:<userId>:<userTicketId>` (a wallet ticket code)
 * and `ok:<userId>:<userTicketId>:<timestamp>:<totp>` (a Google rotating barcode) verify with the right key,
 * anything else does not.
 */
const verify: PassVerifier = (code, { publicKeys, ttlSeconds }) => {
  if (publicKeys[0] !== KEY_PUB || ttlSeconds !== 30 || !code.startsWith('ok:')) return null;
  const [userId, userTicketId, timestampSeconds, value] = code.slice(3).split(':');
  if (userTicketId === undefined) return { userId: Number(userId) };
  return {
    userId: Number(userId),
    userTicketId: Number(userTicketId),
    ...(value !== undefined && { totp: { timestampSeconds: Number(timestampSeconds), value } }),
  };
};

const pages: AdmissionsPage[] = [
  {
    eventId: EVENT,
    takenAt: '2026-12-01T08:00:00.000Z',
    timeZone: 'Europe/Madrid',
    passPublicKeys: [KEY_PUB],
    passTtlSeconds: 30,
    passSkewSteps: 1,
    holders: [
      {
        userId: 1,
        holderName: 'Alice',
        tickets: [
          { userTicketId: 11, ticketName: 'GA', usedAt: null, listed: false },
          { userTicketId: 12, ticketName: 'VIP', usedAt: null, listed: true },
        ],
        walletTotpSecrets: [{ userTicketId: 11, totpSecret: TOTP_SECRET }],
      },
    ],
    nextAfter: 1,
  },
  {
    eventId: EVENT,
    takenAt: '2026-12-01T08:00:01.000Z',
    timeZone: 'Europe/Madrid',
    passPublicKeys: [KEY_PUB],
    passTtlSeconds: 30,
    passSkewSteps: 1,
    holders: [
      {
        userId: 2,
        holderName: 'Bob',
        tickets: [{ userTicketId: 21, ticketName: 'GA', usedAt: '2026-12-01T07:00:00.000Z', listed: false }],
      },
    ],
    nextAfter: null,
  },
];

/** A store in memory (IndexedDB in the page); it outlives the doors made on it, like a reload. */
function memoryStore(): DoorStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => Promise.resolve(structuredClone(data.get(key)) as T | undefined),
    set: (key, value) => {
      data.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}

/**
 * The server: snapshot pages, check-ins, syncs; `down` makes every fetch fail like no network; `shed` check-ins are
 * answered 503 `api.busy` with `Retry-After: 1` (load shedding, decision 039) before the next ones are.
 */
function fakeServer(syncAnswer: (body: { items: { id: string; userTicketIds: number[] }[] }) => SyncResponse) {
  const calls: { url: string; body?: unknown }[] = [];
  const state = {
    down: false,
    shed: 0,
    door: { name: 'North gate', mode: 'entry', zone: null as string | null },
    /** Scans the server has recorded, by ticket (the snapshot's `scans`). */
    scans: {} as Record<number, RecordedScan[]>,
  };
  const impl = (url: string, init?: RequestInit) => {
    if (state.down) return Promise.reject(new TypeError('Failed to fetch'));
    const body: unknown = init?.body ? JSON.parse(init.body as string) : undefined;
    calls.push({ url, body });
    const json = (status: number, value: unknown) => Promise.resolve(new Response(JSON.stringify(value), { status }));
    if (url.startsWith(`/v1/access/events/${EVENT}/admissions`)) {
      const page = structuredClone(new URL(url, 'http://x').searchParams.get('after') === '1' ? pages[1] : pages[0]);
      for (const h of page.holders)
        for (const t of h.tickets) if (state.scans[t.userTicketId]) t.scans = state.scans[t.userTicketId];
      return json(200, page);
    }
    if (url === '/v1/access/sync') return json(200, syncAnswer(body as never));
    if (url === '/v1/access/door') return json(200, state.door);
    if (url === '/v1/access/check-in' && state.shed > 0) {
      state.shed--;
      return Promise.resolve(
        new Response(JSON.stringify({ message: 'api.busy' }), { status: 503, headers: { 'retry-after': '1' } }),
      );
    }
    if (url === '/v1/access/check-in')
      return json(200, {
        holderName: 'Alice',
        admitted: [{ userTicketId: 11, ticketName: 'GA' }],
        alreadyUsed: [],
        listedForResale: [],
      });
    return json(404, {});
  };
  return { calls, state, impl };
}

const allAdmitted = (body: { items: { id: string; userTicketIds: number[] }[] }): SyncResponse => ({
  results: body.items.map((i) => ({ id: i.id, admitted: i.userTicketIds, conflicts: [] })),
});

function setup(syncAnswer = allAdmitted) {
  const store = memoryStore();
  const server = fakeServer(syncAnswer);
  const net = { online: true };
  let n = 0;
  const make = () =>
    offlineDoor({
      key: 'k',
      store,
      verify,
      fetchImpl: server.impl,
      isOnline: () => net.online,
      now: () => new Date('2026-12-01T09:00:00.000Z'),
      newId: () => `00000000-0000-4000-8000-00000000000${++n}`,
    });
  return { store, server, net, make };
}

/** Watches the event and waits until the first sync and snapshot read are done. */
async function watched(door: ReturnType<ReturnType<typeof setup>['make']>) {
  const statuses: DoorStatus[] = [];
  door.watch(EVENT, (s) => statuses.push(s));
  await vi.waitFor(() => expect(statuses.at(-1)?.snapshotTakenAt ?? null).not.toBeNull());
  return statuses;
}

// Over 150 lines: the offline door's cases, each short, in one describe over the same fake server and store (setup).
describe('the offline door', () => {
  it('keeps every page of the snapshot while online, and asks the server to check in', async () => {
    const { make, server, store } = setup();
    const door = make();
    const statuses = await watched(door);
    expect(server.calls.map((c) => c.url)).toEqual([
      '/v1/access/door',
      `/v1/access/events/${EVENT}/admissions?after=0&limit=1000`,
      `/v1/access/events/${EVENT}/admissions?after=1&limit=1000`,
    ]);
    expect(statuses.at(-1)).toEqual({
      online: true,
      queued: 0,
      snapshotTakenAt: pages[0].takenAt,
      conflicts: [],
      lastSync: null,
    });
    expect(store.data.get(`snapshot:${EVENT}`)).toMatchObject({
      passPublicKeys: [KEY_PUB],
      passTtlSeconds: 30,
      holders: [{ userId: 1 }, { userId: 2 }],
    });
    const outcome = await door.checkIn('TP1.1.2.x', EVENT);
    expect(outcome).toMatchObject({ kind: 'answered', answer: { admitted: [{ userTicketId: 11 }] } });
    expect(outcome).not.toHaveProperty('offline');
  });

  it('a check-in the API sheds is decided from the snapshot at once, queued, and synced (issue 44)', async () => {
    const { make, server, store } = setup();
    const door = make();
    await watched(door);
    server.state.shed = 1;
    const outcome = await door.checkIn('ok:1', EVENT);
    expect(outcome).toMatchObject({
      kind: 'answered',
      offline: true,
      shed: true,
      answer: { holderName: 'Alice', admitted: [{ userTicketId: 11 }] },
    });
    // Not asked again: the person at the door did not wait for the Retry-After.
    expect(server.calls.filter((c) => c.url === '/v1/access/check-in')).toHaveLength(1);
    expect(store.data.get('queue')).toMatchObject([{ eventId: EVENT, code: 'ok:1', userTicketIds: [11] }]);
    await door.sync();
    expect(server.calls.filter((c) => c.url === '/v1/access/sync')).toHaveLength(1);
    expect(store.data.get('queue')).toEqual([]);
  });

  it('a shed check-in with no snapshot to decide from is asked again after Retry-After (issue 44)', async () => {
    const { make, server } = setup();
    const door = make();
    vi.useFakeTimers();
    try {
      server.state.shed = 1;
      const outcome = door.checkIn('ok:1', EVENT);
      await vi.advanceTimersByTimeAsync(1500);
      expect(await outcome).toMatchObject({ kind: 'answered', answer: { admitted: [{ userTicketId: 11 }] } });
      expect(await outcome).not.toHaveProperty('offline');
      expect(server.calls.filter((c) => c.url === '/v1/access/check-in')).toHaveLength(2);
      server.state.shed = 2;
      const twice = door.checkIn('ok:1', EVENT);
      await vi.advanceTimersByTimeAsync(1500);
      expect(await twice).toEqual({ kind: 'busy' });
      expect(server.calls.filter((c) => c.url === '/v1/access/check-in')).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it("offline: a Google rotating barcode is admitted only when its TOTP is fresh by the snapshot's secret", async () => {
    const { make, net, store } = setup();
    const door = make();
    await watched(door);
    net.online = false;
    const nowS = Date.parse('2026-12-01T09:00:00.000Z') / 1000;
    const screenshot = `ok:1:11:${nowS - 600}:${await walletTotp(TOTP_SECRET, nowS - 600)}`;
    const madeUp = `ok:1:11:${nowS}:${(await walletTotp(TOTP_SECRET, nowS)) === '00000000' ? '00000001' : '00000000'}`;
    expect(await door.checkIn(screenshot, EVENT)).toEqual({ kind: 'stale' });
    expect(await door.checkIn(madeUp, EVENT)).toEqual({ kind: 'stale' });
    // Without the pass's secret in the snapshot (saved to Google after it was taken) the timestamp alone
    // still says a 10-minute-old code is stale (issue 39, item 13).
    expect(await door.checkIn(`ok:1:12:${nowS - 600}:12345678`, EVENT)).toEqual({ kind: 'stale' });
    expect(store.data.get('queue') ?? []).toEqual([]);
    const live = `ok:1:11:${nowS - 5}:${await walletTotp(TOTP_SECRET, nowS - 5)}`;
    expect(await door.checkIn(live, EVENT)).toMatchObject({
      kind: 'answered',
      offline: true,
      answer: { admitted: [{ userTicketId: 11 }] },
    });
  });

  it('offline: verifies with the public key, admits from the snapshot by the server rule, marks used, queues', async () => {
    const { make, net, store } = setup();
    const door = make();
    await watched(door);
    net.online = false;
    expect(await door.checkIn('ok:1', EVENT)).toEqual({
      kind: 'answered',
      offline: true,
      answer: {
        holderName: 'Alice',
        admitted: [{ userTicketId: 11, ticketName: 'GA' }],
        alreadyUsed: [],
        listedForResale: [{ userTicketId: 12, ticketName: 'VIP' }],
      },
    });
    expect(store.data.get('queue')).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000001',
        eventId: EVENT,
        holderName: 'Alice',
        code: 'ok:1',
        scannedAt: '2026-12-01T09:00:00.000Z',
        userTicketIds: [11],
        // No direction chosen: none queued, the server takes the key's mode.
        record: { at: '2026-12-01T09:00:00.000Z', direction: 'in', zone: null, day: '2026-12-01' },
      },
    ]);
    // The same holder again: already used, nothing more queued.
    expect(await door.checkIn('ok:1', EVENT)).toMatchObject({
      kind: 'answered',
      answer: { admitted: [], alreadyUsed: [{ userTicketId: 11, usedAt: '2026-12-01T09:00:00.000Z' }] },
    });
    expect(await door.checkIn('ok:2', EVENT)).toMatchObject({
      answer: { holderName: 'Bob', admitted: [], alreadyUsed: [{ userTicketId: 21 }] },
    });
    expect(await door.checkIn('ok:3', EVENT)).toMatchObject({
      answer: { admitted: [], alreadyUsed: [], listedForResale: [] },
    });
    expect(await door.checkIn('forged', EVENT)).toEqual({ kind: 'invalid' });
    expect(await door.checkIn('ok:1', 99)).toEqual({ kind: 'offline_unavailable' });
    expect(store.data.get('queue')).toHaveLength(1);

    // A reload offline: a new door on the same store still has the queue and the snapshot.
    const again = make();
    const statuses: DoorStatus[] = [];
    again.watch(EVENT, (s) => statuses.push(s));
    await again.sync();
    expect(statuses.at(-1)).toMatchObject({ online: false, queued: 1, snapshotTakenAt: pages[0].takenAt });
    expect(await again.checkIn('ok:1', EVENT)).toMatchObject({
      answer: { admitted: [], alreadyUsed: [{ userTicketId: 11 }] },
    });
  });

  it('offline at an exit door (its mode read from the key): lets out only who is inside, queues each direction', async () => {
    const { make, net, server, store } = setup();
    server.state.door = { name: 'VIP exit', mode: 'exit', zone: 'VIP' };
    const door = make();
    await watched(door);
    expect(await door.info()).toEqual({ name: 'VIP exit', mode: 'exit', zone: 'VIP' });
    net.online = false;
    // Nobody is inside the VIP zone yet: nothing to let out (the listed ticket neither).
    expect(await door.checkIn('ok:1', EVENT)).toMatchObject({
      answer: { admitted: [], refused: [{ userTicketId: 11, reason: 'not_inside' }, { userTicketId: 12 }] },
    });
    // A scan that says it is an entry; then the door's own mode, an exit.
    expect(await door.checkIn('ok:1', EVENT, 'in')).toMatchObject({ answer: { admitted: [{ userTicketId: 11 }] } });
    expect(await door.checkIn('ok:1', EVENT)).toMatchObject({ answer: { exited: [{ userTicketId: 11 }] } });
    const queue = store.data.get('queue') as QueuedCheckIn[];
    // The chosen direction is queued; the door's own is not (the server takes the key's mode, which this door may
    // not have read: an exit key's scans never sync as entries).
    expect(queue.map((q) => [q.userTicketIds, q.direction, q.record?.direction, q.record?.zone])).toEqual([
      [[11], 'in', 'in', 'VIP'],
      [[11], undefined, 'out', 'VIP'],
    ]);
    // A snapshot read while they wait keeps their scans, once each (the entry, say, reached the server before).
    server.state.scans[11] = [queue[0].record!];
    net.online = true;
    await door.refresh();
    const snap = store.data.get(`snapshot:${EVENT}`) as Snapshot;
    expect(snap.holders[0].tickets[0].scans?.map((x) => x.direction)).toEqual(['in', 'out']);
    // The key's mode and zone are read once per page, not at every refresh (counted per IP like the event list).
    expect(server.calls.filter((c) => c.url === '/v1/access/door')).toHaveLength(1);
  });

  it('falls back to the snapshot when the network fails although the browser says online', async () => {
    const { make, server } = setup();
    const door = make();
    await watched(door);
    server.state.down = true;
    expect(await door.checkIn('ok:1', EVENT)).toMatchObject({
      kind: 'answered',
      offline: true,
      answer: { admitted: [{ userTicketId: 11 }] },
    });
  });

  it('syncs the queue when back online, keeps the conflicts the server reports, and reads the snapshot again', async () => {
    const { make, net, server, store } = setup((body) => ({
      results: body.items.map((i) => ({
        id: i.id,
        admitted: [],
        conflicts: [{ userTicketId: 11, reason: 'already_used' }],
      })),
    }));
    const door = make();
    await watched(door);
    net.online = false;
    await door.checkIn('ok:1', EVENT);
    await door.sync(); // offline: nothing sent
    expect(server.calls.filter((c) => c.url === '/v1/access/sync')).toEqual([]);

    net.online = true;
    const statuses: DoorStatus[] = [];
    door.watch(EVENT, (s) => statuses.push(s));
    await door.sync();
    const sent = server.calls.filter((c) => c.url === '/v1/access/sync');
    expect(sent).toEqual([
      {
        url: '/v1/access/sync',
        body: {
          eventId: EVENT,
          items: [
            {
              id: '00000000-0000-4000-8000-000000000001',
              code: 'ok:1',
              scannedAt: '2026-12-01T09:00:00.000Z',
              userTicketIds: [11],
            },
          ],
        },
      },
    ]);
    expect(store.data.get('queue')).toEqual([]);
    expect(statuses.at(-1)).toMatchObject({
      online: true,
      queued: 0,
      conflicts: [{ holderName: 'Alice', userTicketId: 11, ticketName: 'GA', reason: 'already_used', eventId: EVENT }],
      // The server's final word on this sync: nothing recorded as made, one check-in refused.
      lastSync: {
        id: 1,
        synced: 0,
        refused: 1,
        conflicts: [{ holderName: 'Alice', userTicketId: 11, reason: 'already_used' }],
      },
    });
    await vi.waitFor(() => expect(server.calls.at(-1)?.url).toMatch(/admissions\?after=1/));
    // Door staff clear the list once they have told the organiser (issue 40 point 7); it stays clear.
    await door.clearConflicts();
    expect(statuses.at(-1)?.conflicts).toEqual([]);
    expect(store.data.get('conflicts')).toEqual([]);
  });

  it('reports each sync that sent check-ins as its own summary (synced and refused), and sends the device id', async () => {
    const store = memoryStore();
    const server = fakeServer(allAdmitted);
    const net = { online: true };
    const headers: Record<string, string>[] = [];
    const door = offlineDoor({
      key: 'k',
      deviceId: 'device-1234',
      store,
      verify,
      fetchImpl: (url, init) => {
        headers.push(init?.headers as Record<string, string>);
        return server.impl(url, init);
      },
      isOnline: () => net.online,
      now: () => new Date('2026-12-01T09:00:00.000Z'),
      newId: () => '00000000-0000-4000-8000-000000000009',
    });
    const statuses = await watched(door);
    expect(statuses.at(-1)?.lastSync).toBeNull();
    net.online = false;
    await door.checkIn('ok:1', EVENT);
    net.online = true;
    await door.sync();
    expect(statuses.at(-1)?.lastSync).toEqual({ id: 1, synced: 1, refused: 0, conflicts: [] });
    await door.sync(); // nothing to send: the summary stays the same one
    expect(statuses.at(-1)?.lastSync?.id).toBe(1);
    expect(headers.every((h) => h['x-scanner-key'] === 'k' && h['x-door-device'] === 'device-1234')).toBe(true);
  });

  it('keeps the queue when the sync fails on the network, and sends it next time', async () => {
    const { make, net, server, store } = setup();
    const door = make();
    await watched(door);
    net.online = false;
    await door.checkIn('ok:1', EVENT);
    net.online = true;
    server.state.down = true;
    await door.sync();
    expect(store.data.get('queue')).toHaveLength(1);
    server.state.down = false;
    await door.sync();
    expect(store.data.get('queue')).toEqual([]);
    expect(store.data.get('conflicts')).toBeUndefined();
  });

  it("offline: a wallet pass's ticket code admits its one ticket, not the holder's others", async () => {
    const { make, net } = setup();
    const door = make();
    await watched(door);
    net.online = false;
    // Alice holds 11 (GA) and 12 (VIP, listed): the code for 12 admits nothing, and does not let 11 in.
    expect(await door.checkIn('ok:1:12', EVENT)).toMatchObject({
      answer: { admitted: [], alreadyUsed: [], listedForResale: [{ userTicketId: 12 }] },
    });
    expect(await door.checkIn('ok:1:11', EVENT)).toMatchObject({
      answer: { admitted: [{ userTicketId: 11 }], listedForResale: [] },
    });
  });

  it('offline with no snapshot kept yet says it cannot admit, and lists the events it kept', async () => {
    const { make, net } = setup();
    net.online = false;
    const door = make();
    expect(await door.events()).toEqual({ kind: 'network' });
    expect(await door.checkIn('ok:1', EVENT)).toEqual({ kind: 'offline_unavailable' });
  });
});

describe('the pass verifier of the offline door', () => {
  it("verifies the contract's pass codes with the public key alone, at the scan time", async () => {
    const { passVerifier } = await import('./pass-verifier');
    const { publicKeyOf, signServerCode, toBase64Url } = await import('@tp/contract/pass-code');
    const secret = new Uint8Array(32).fill(7);
    const publicKey = toBase64Url(await publicKeyOf(secret));
    const at = new Date('2026-12-01T09:00:00.000Z');
    const code = await signServerCode(secret, 42, Math.floor(at.getTime() / 1000 / 30));
    expect(await passVerifier(code, { publicKeys: [publicKey], ttlSeconds: 30, skewSteps: 1 }, at)).toEqual({
      userId: 42,
    });
    expect(
      await passVerifier(
        code,
        { publicKeys: [publicKey], ttlSeconds: 30, skewSteps: 1 },
        new Date(at.getTime() + 90_000),
      ),
    ).toBeNull();
    const other = toBase64Url(await publicKeyOf(new Uint8Array(32).fill(8)));
    expect(await passVerifier(code, { publicKeys: [other], ttlSeconds: 30, skewSteps: 1 }, at)).toBeNull();
    expect(await passVerifier('TP1.42.1.x', { publicKeys: [publicKey], ttlSeconds: 30, skewSteps: 1 }, at)).toBeNull();
    const { signTicketCode } = await import('@tp/contract/pass-code');
    const seconds = at.getTime() / 1000;
    const ticketCode = await signTicketCode(secret, {
      userTicketId: 7,
      holderId: 42,
      validFrom: seconds - 60,
      validUntil: seconds + 60,
    });
    expect(await passVerifier(ticketCode, { publicKeys: [publicKey], ttlSeconds: 30, skewSteps: 1 }, at)).toEqual({
      userId: 42,
      userTicketId: 7,
    });
    // A Google pass's rotating ticket code: with its suffix it names the TOTP; stripped of it, it is invalid.
    const rotating = await signTicketCode(
      secret,
      { userTicketId: 7, holderId: 42, validFrom: seconds - 60, validUntil: seconds + 60 },
      undefined,
      'rotating',
    );
    const keys = { publicKeys: [publicKey], ttlSeconds: 30, skewSteps: 1 };
    expect(await passVerifier(`${rotating}.${seconds}.12345678`, keys, at)).toEqual({
      userId: 42,
      userTicketId: 7,
      totp: { timestampSeconds: seconds, value: '12345678' },
    });
    expect(await passVerifier(rotating, keys, at)).toBeNull();
  });
});
