/**
 * Issue 48: the door gives the same answer online and offline (decision 050). fast-check generates scan sequences —
 * a holder's two tickets of types with random entry rules (days, once / once per day / re-entry, zones), an event in
 * one of five time zones, scans at six doors (entry and exit; no zone, VIP, Backstage) minutes to hours apart across
 * event-local days, in segments either online (any door asks the server) or offline (one door judges from its
 * snapshot alone, then syncs) — and checks every verdict (online, offline, on sync) and the server's recorded scans
 * against one replay of the scans in time order by the contract's engine (what an always-online door would say).
 *
 * Three drivers run the same sequences, cheapest last, together more than 10,000 per database:
 * - `routes`: the real routes through `app.inject` and the panel's offline door itself (offline-door.ts with its
 *   fetch on the app: online check-ins, its snapshot, its offline judgement and queue, its sync);
 * - `service`: the server's check-in service in-process (`checkIn`, `admissions`, `sync`: the routes' code and SQL
 *   without HTTP), the door's judgement by the panel's `checkInOffline` on that snapshot;
 * - `pure`: the server's judgement (`judgeScan`, `inScanOrder`: what online check-in and sync run between their reads
 *   and writes) on an in-memory history, and the panel's `checkInOffline` — no database, for the bulk.
 *
 * Controls: a door whose snapshot carries a wrong rule — days by UTC midnight instead of the event's, or `reentry`
 * for every type — must be caught.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type access } from '@tp/contract';
import { checkInAnswer } from '@tp/contract/admission';
import { eventLocalDay, judgeEntry, type EntryRules, type RecordedScan } from '@tp/contract/entry-rules';
import { createTestApp, type TestApp } from './helper.js';
import { doorKeys, events, organisations, ticketTypes, users, userTickets } from '../src/db/schema.js';
import { sha256Hex } from '../src/lib/secrets.js';
import { accessRepository } from '../src/modules/access/access.repository.js';
import { judgeScan } from '../src/modules/access/entry-judgement.js';
import { inScanOrder } from '../src/modules/access/offline-sync.js';
import {
  offlineDoor,
  type DoorStatus,
  type DoorStore,
  type QueuedCheckIn,
  type Snapshot,
} from '../../panel/src/scanner/offline-door';
import { doorCore, keepDoorInfo, KEYS } from '../../panel/src/scanner/offline-door-core';
import { checkInOffline } from '../../panel/src/scanner/offline-check-in';
import { passVerifier } from '../../panel/src/scanner/pass-verifier';

/** Sequences per driver (together over 10,000 per database run; about 40 s on PGlite). */
const RUNS = { routes: 100, service: 400, pure: 10_000 };
const SEED = 48;
/** Each driver takes 3–15 s alone; a loaded CI machine (two test files at once, decision 028) takes several times that. */
const LOADED_TIMEOUT = 120_000;

const ZONES = [null, 'VIP', 'Backstage'] as const;
const DOORS = ZONES.flatMap((zone) => (['entry', 'exit'] as const).map((mode) => ({ zone, mode })));
type DoorSpec = (typeof DOORS)[number];
const TIME_ZONES = ['Europe/Madrid', 'America/New_York', 'Australia/Sydney', 'UTC', 'Pacific/Kiritimati'];
const BASE = Date.parse('2027-07-09T12:00:00.000Z');
const directionOf = (door: DoorSpec) => (door.mode === 'exit' ? ('out' as const) : ('in' as const));

const sequenceArb = fc.record({
  timeZone: fc.constantFrom(...TIME_ZONES),
  types: fc.array(
    fc.record({
      entries: fc.constantFrom('once' as const, 'once_per_day' as const, 'reentry' as const),
      days: fc.option(fc.subarray([0, 1, 2], { minLength: 1 }), { nil: undefined }),
      zones: fc.option(fc.subarray(['VIP', 'Backstage'], { minLength: 1 }), { nil: undefined }),
    }),
    { minLength: 2, maxLength: 2 },
  ),
  segments: fc.array(
    fc.record({
      offlineDoor: fc.option(fc.nat(DOORS.length - 1), { nil: null }),
      // An offline stretch stays under the sync's 48 hours (at most 4 scans at most 10 hours apart).
      scans: fc.array(fc.record({ door: fc.nat(DOORS.length - 1), minutes: fc.integer({ min: 1, max: 600 }) }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});
type Sequence = typeof sequenceArb extends fc.Arbitrary<infer T> ? T : never;

/** The rules of the sequence's type `i`: its days are the event-local dates 0 to 2 days after the start. */
function rulesOf(seq: Sequence, i: number): EntryRules {
  const type = seq.types[i];
  const first = Date.parse(`${eventLocalDay(new Date(BASE), seq.timeZone)}T12:00:00Z`);
  const day = (n: number) => new Date(first + n * 86_400_000).toISOString().slice(0, 10);
  return {
    entries: type.entries,
    ...(type.days && { days: type.days.map(day) }),
    ...(type.zones && { zones: type.zones }),
  };
}

/** The replay: every scan in time order against the history so far, as one always-online door would judge it. */
class Replay {
  readonly history = new Map<number, RecordedScan[]>();
  constructor(
    private readonly rules: Map<number, EntryRules>,
    private readonly timeZone: string,
  ) {}
  judge(ticketId: number, at: Date, door: DoorSpec): string {
    const history = this.history.get(ticketId) ?? [];
    const scan = { at: at.toISOString(), zone: door.zone, direction: directionOf(door), timeZone: this.timeZone };
    const v = judgeEntry(this.rules.get(ticketId), history, scan);
    if (v.ok) this.history.set(ticketId, [...history, v.record]);
    return v.ok ? 'ok' : v.reason;
  }
}

/** The verdict an answer gives one ticket: `ok` (entered or let out) or why not. */
function verdictIn(answer: access.CheckInResponse, id: number): string {
  const has = (list: { userTicketId: number }[] | undefined) => list?.some((x) => x.userTicketId === id);
  if (has(answer.admitted) || has(answer.exited)) return 'ok';
  if (has(answer.alreadyUsed)) return 'already_used';
  if (has(answer.listedForResale)) return 'listed';
  return answer.refused?.find((x) => x.userTicketId === id)?.reason ?? 'none';
}

/** A control's wrong rule, applied to the door's snapshot (its copy of the rules and the time zone). */
type Rewrite = (snap: Pick<Snapshot, 'timeZone' | 'holders'>) => void;
const utcDays: Rewrite = (snap) => {
  snap.timeZone = 'UTC';
};
const everyTypeReentry: Rewrite = (snap) => {
  for (const h of snap.holders) for (const t of h.tickets) t.entryRules = { ...t.entryRules, entries: 'reentry' };
};

/** What a driver does for the runner; `tickets` the holder's, `replay` their replay. */
interface Harness {
  tickets: number[];
  replay: Replay;
  clock: { now: () => Date };
  /** A scan at door `i` while online: the server's answer. */
  online(i: number): Promise<access.CheckInResponse>;
  /** Door `i` takes its snapshot and loses the network. */
  goOffline(i: number): Promise<void>;
  /** A scan at offline door `i`: the door's own answer. */
  offline(i: number): Promise<access.CheckInResponse>;
  /** Door `i` is back and syncs: the conflicts the server reported. */
  sync(i: number): Promise<unknown[]>;
  /** The server's recorded scans per ticket. */
  history(): Promise<Map<number, RecordedScan[]>>;
}

/** Runs a sequence; the first divergence from the replay, or null. */
async function run(seq: Sequence, h: Harness, advance: (ms: number) => void) {
  for (const segment of seq.segments) {
    const off = segment.offlineDoor;
    if (off !== null) await h.goOffline(off);
    for (const s of segment.scans) {
      advance(s.minutes * 60_000);
      const i = off ?? s.door;
      // A pass is judged for every ticket its holder holds for the event.
      const expected = h.tickets.map((id) => h.replay.judge(id, h.clock.now(), DOORS[i]));
      const answer = off === null ? await h.online(i) : await h.offline(i);
      const got = h.tickets.map((id) => verdictIn(answer, id));
      if (got.join() !== expected.join())
        return { at: off === null ? 'online' : 'offline', door: DOORS[i], expected, got };
    }
    if (off !== null) {
      const conflicts = await h.sync(off);
      if (conflicts.length) return { at: 'sync', conflicts };
    }
  }
  const server = await h.history();
  for (const id of h.tickets) {
    const [theirs, mine] = [server.get(id) ?? [], h.replay.history.get(id) ?? []];
    if (JSON.stringify(theirs) !== JSON.stringify(mine)) return { at: 'history', ticket: id, theirs, mine };
  }
  return null;
}

/** A door device's store, in memory. */
function memoryStore(): DoorStore {
  const data = new Map<string, unknown>();
  return {
    get: <T>(k: string) => Promise.resolve(structuredClone(data.get(k)) as T | undefined),
    set: (k: string, v: unknown) => {
      data.set(k, structuredClone(v));
      return Promise.resolve();
    },
  };
}

/**
 * The panel's offline judgement on a snapshot it is given (`checkInOffline` of offline-check-in.ts, its store in
 * memory, the pass taken as the holder's: verification is not what this test is about).
 */
function snapshotDoor(userId: number, now: () => Date) {
  const store = memoryStore();
  const core = doorCore({
    key: '',
    store,
    verify: () => Promise.resolve({ userId }),
    isOnline: () => false,
    now,
    newId: randomUUID,
    fetchImpl: () => Promise.reject(new Error('offline')),
  });
  return {
    async load(snap: Snapshot, door: DoorSpec, rewrite?: Rewrite) {
      rewrite?.(snap);
      await core.saveSnapshot(snap);
      await keepDoorInfo(store, '', { name: null, ...door });
      await store.set(KEYS.queue, []);
    },
    async scan(code: string, eventId: number): Promise<access.CheckInResponse> {
      const outcome = await checkInOffline(core, code, eventId);
      if (outcome.kind !== 'answered') throw new Error(`offline door: ${outcome.kind}`);
      return outcome.answer;
    },
    async queue(): Promise<access.SyncItem[]> {
      const queued = (await store.get<QueuedCheckIn[]>(KEYS.queue)) ?? [];
      return queued.map(({ id, code, scannedAt, userTicketIds, direction }) => ({
        id,
        code,
        scannedAt,
        userTicketIds,
        ...(direction && { direction }),
      }));
    },
  };
}

/** One app for many sequences: an organisation and six door keys; each sequence adds its event, types and holder. */
async function world() {
  const t = await createTestApp({
    start: new Date(BASE),
    config: { qrTtlSeconds: 30, checkInPerMinute: 1e9, accessEventsPerMinute: 1e9, doorSyncPerMinute: 1e9 },
  });
  const { db } = t.database;
  const [org] = await db.insert(organisations).values({ slug: 'fest', name: 'Fest' }).returning();
  const keys = [];
  for (const [i, d] of DOORS.entries()) {
    const key = `tpd_door000${i}_${'k'.repeat(42)}${i}`;
    const [row] = await db
      .insert(doorKeys)
      .values({ organisationId: org.id, name: `door ${i}`, prefix: key.slice(0, 12), keyHash: sha256Hex(key), ...d })
      .returning();
    keys.push({ key, scope: { doorKeyId: row.id, organisationId: org.id, eventIds: null, name: row.name, ...d } });
  }
  let n = 0;
  /** A new event in the sequence's time zone, its two types, and a holder with a ticket of each; the clock at BASE. */
  async function fixture(seq: Sequence) {
    n++;
    t.clock.advance(BASE - t.clock.now().getTime());
    const [event] = await db
      .insert(events)
      .values({
        organisationId: org.id,
        name: `Fest ${n}`,
        ...{ city: 'Madrid', country: 'ES', venue: 'Park', address1: 'Road 1', latitude: 0, longitude: 0 },
        timeZone: seq.timeZone,
        startsAt: new Date(BASE),
        endsAt: new Date(BASE + 10 * 86_400_000),
      })
      .returning();
    const [user] = await db
      .insert(users)
      .values({ email: `h${n}@example.com`, nickname: `h${n}`, usernameSuffix: n })
      .returning();
    const rules = new Map<number, EntryRules>();
    for (const i of [0, 1]) {
      const entryRules = rulesOf(seq, i);
      const [type] = await db
        .insert(ticketTypes)
        .values({
          ...{ organisationId: org.id, eventId: event.id, name: `T${i}` },
          ...{ priceCents: 0, currencyCode: 'EUR', maxResalePriceCents: 0, entryRules },
        })
        .returning();
      const [ticket] = await db
        .insert(userTickets)
        .values({ organisationId: org.id, ticketTypeId: type.id, holderId: user.id })
        .returning();
      rules.set(ticket.id, entryRules);
    }
    return {
      eventId: event.id,
      userId: user.id,
      tickets: [...rules.keys()],
      replay: new Replay(rules, seq.timeZone),
      code: () => t.app.services.access.codeFor(user.id, Math.floor(t.clock.now().getTime() / 1000 / 30)),
      history: () => accessRepository.scansOf(db, [...rules.keys()]),
    };
  }
  return { t, keys, fixture };
}
type World = Awaited<ReturnType<typeof world>>;

/** `fetch` on the app: what the panel's door sends, answered by `app.inject`; a control rewrites the snapshot. */
const fetchOn = (t: TestApp, rewrite?: Rewrite) => async (url: string, init?: RequestInit) => {
  const r = await t.app.inject({
    method: (init?.method ?? 'GET') as 'GET',
    url,
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    ...(init?.body ? { payload: init.body as string } : {}),
  });
  let body = r.body;
  if (rewrite && url.includes('/admissions') && r.statusCode === 200) {
    const page = r.json<access.AdmissionsPage>();
    rewrite(page);
    body = JSON.stringify(page);
  }
  return new Response(r.statusCode === 204 ? null : body, {
    status: r.statusCode,
    headers: { 'content-type': 'application/json' },
  });
};

/** The `routes` driver: the panel's offline door on the real routes, one device per door key. */
async function routesHarness(w: World, seq: Sequence, rewrite?: Rewrite): Promise<Harness> {
  const f = await w.fixture(seq);
  const nets = DOORS.map(() => ({ online: true }));
  const latest = new Map<number, DoorStatus>();
  const doors = DOORS.map((_, i) =>
    offlineDoor({
      key: w.keys[i].key,
      store: memoryStore(),
      verify: passVerifier,
      fetchImpl: fetchOn(w.t, rewrite),
      isOnline: () => nets[i].online,
      now: w.t.clock.now,
    }),
  );
  const answered = async (i: number) => {
    const outcome = await doors[i].checkIn(await f.code(), f.eventId);
    if (outcome.kind !== 'answered') throw new Error(`door ${i}: ${outcome.kind}`);
    return outcome.answer;
  };
  return {
    ...f,
    clock: w.t.clock,
    online: answered,
    offline: answered,
    async goOffline(i) {
      // Watching the event reads the door's info and the snapshot (and again on a later stretch).
      if (latest.has(i)) await doors[i].refresh();
      else
        await new Promise<void>((done) =>
          doors[i].watch(f.eventId, (s) => {
            latest.set(i, s);
            if (s.snapshotTakenAt) done();
          }),
        );
      nets[i].online = false;
    },
    async sync(i) {
      nets[i].online = true;
      await doors[i].sync();
      return latest.get(i)?.conflicts ?? [];
    },
    history: f.history,
  };
}

/** The `service` driver: the check-in service in-process, the panel's offline judgement on its snapshot. */
async function serviceHarness(w: World, seq: Sequence, rewrite?: Rewrite): Promise<Harness> {
  const svc = w.t.app.services.checkIn;
  const f = await w.fixture(seq);
  const door = snapshotDoor(f.userId, w.t.clock.now);
  const at = (i: number) => ({ scope: w.keys[i].scope, deviceId: null });
  return {
    ...f,
    clock: w.t.clock,
    online: async (i) => svc.checkIn(await f.code(), f.eventId, at(i)),
    async goOffline(i) {
      // One holder: the page after the user id before theirs holds only them.
      const page = await svc.admissions(f.eventId, f.userId - 1, 1, w.keys[i].scope);
      await door.load(page, DOORS[i], rewrite);
    },
    offline: async () => door.scan(await f.code(), f.eventId),
    async sync(i) {
      const items = await door.queue();
      if (items.length === 0) return [];
      const { results } = await svc.sync({ eventId: f.eventId, items }, at(i));
      return results.flatMap((r) => r.conflicts);
    },
    history: f.history,
  };
}

/**
 * The `pure` driver: the server's judgement (`judgeScan`, sync items `inScanOrder`) on an in-memory history as
 * ticket_scans keeps it, and the panel's offline judgement on a snapshot made from it as `admissions` makes it.
 */
function pureHarness(seq: Sequence, rewrite?: Rewrite): { h: Harness; advance: (ms: number) => void } {
  let now = BASE;
  const clock = { now: () => new Date(now) };
  const rules = new Map([0, 1].map((i) => [i + 1, rulesOf(seq, i)] as const));
  const scans = new Map<number, RecordedScan[]>();
  const usedAt = new Map<number, Date>();
  const door = snapshotDoor(1, clock.now);
  const judge = (ids: number[], when: Date, i: number, offline: boolean) => {
    const tickets = ids.map((id) => ({
      ...{ userTicketId: id, ticketName: `T${id}`, usedAt: usedAt.get(id) ?? null },
      ...{ entryRules: rules.get(id)!, listed: false },
    }));
    const { zone } = DOORS[i];
    const scan = { eventId: 1, timeZone: seq.timeZone, at: when, zone, direction: directionOf(DOORS[i]) };
    const judged = judgeScan(tickets, scans, { ...scan, doorKeyId: i + 1, offline });
    for (const r of judged.rows) {
      scans.set(r.userTicketId, [...(scans.get(r.userTicketId) ?? []), r.record]);
      if (r.record.direction === 'in' && !usedAt.has(r.userTicketId)) usedAt.set(r.userTicketId, when);
    }
    return judged;
  };
  const h: Harness = {
    tickets: [...rules.keys()],
    replay: new Replay(rules, seq.timeZone),
    clock,
    online(i) {
      const { held, verdicts } = judge([...rules.keys()], clock.now(), i, false);
      return Promise.resolve(checkInAnswer('', held, verdicts));
    },
    async goOffline(i) {
      const tickets = [...rules.keys()].map((id) => ({
        ...{ userTicketId: id, ticketName: `T${id}`, usedAt: usedAt.get(id)?.toISOString() ?? null, listed: false },
        ...{ entryRules: rules.get(id)!, scans: scans.get(id) ?? [] },
      }));
      const snap = { eventId: 1, takenAt: clock.now().toISOString(), timeZone: seq.timeZone, holders: [] };
      const keys = { passPublicKeys: ['x'], passTtlSeconds: 30, passSkewSteps: 1 };
      await door.load({ ...snap, ...keys, holders: [{ userId: 1, holderName: '', tickets }] }, DOORS[i], rewrite);
    },
    offline: () => door.scan('pass', 1),
    async sync(i) {
      const conflicts = [];
      for (const item of inScanOrder(await door.queue()))
        for (const [id, v] of judge(item.userTicketIds, new Date(item.scannedAt), i, true).verdicts)
          if (!v.ok) conflicts.push({ id, reason: v.reason });
      return conflicts;
    },
    history: () => Promise.resolve(scans),
  };
  return { h, advance: (ms) => (now += ms) };
}

/** Runs `runs` sequences of a driver; the fast-check report (its `failed`, `counterexample`). */
async function check(runs: number, one: (seq: Sequence) => Promise<unknown>) {
  return fc.check(
    fc.asyncProperty(sequenceArb, async (seq) => {
      const divergence = await one(seq);
      if (divergence) throw new Error(JSON.stringify(divergence));
    }),
    { numRuns: runs, seed: SEED, endOnFailure: true },
  );
}
const expectNoDivergence = (report: { failed: boolean; numRuns: number; errorInstance: unknown }) =>
  expect(report.failed ? `${report.numRuns} runs: ${String(report.errorInstance)}` : null).toBeNull();

describe('entry rules: the same answer online and offline, over fast-check sequences (issue 48)', () => {
  it(
    'routes: the panel’s offline door on the real routes (and a wrong rule in its snapshot is caught)',
    { timeout: LOADED_TIMEOUT },
    async () => {
      const w = await world();
      try {
        const advance = (ms: number) => w.t.clock.advance(ms);
        expectNoDivergence(await check(RUNS.routes, async (seq) => run(seq, await routesHarness(w, seq), advance)));
        const control = await check(RUNS.routes, async (seq) =>
          run(seq, await routesHarness(w, seq, everyTypeReentry), advance),
        );
        expect(control.failed).toBe(true);
      } finally {
        await w.t.close();
      }
    },
  );

  it(
    'service: the check-in service in-process and the panel’s offline judgement',
    { timeout: LOADED_TIMEOUT },
    async () => {
      const w = await world();
      try {
        const advance = (ms: number) => w.t.clock.advance(ms);
        expectNoDivergence(await check(RUNS.service, async (seq) => run(seq, await serviceHarness(w, seq), advance)));
      } finally {
        await w.t.close();
      }
    },
  );

  it(
    'pure: the server’s judgement and the panel’s offline judgement, no database (and a UTC day is caught)',
    { timeout: LOADED_TIMEOUT },
    async () => {
      const pure = (rewrite?: Rewrite) => async (seq: Sequence) => {
        const { h, advance } = pureHarness(seq, rewrite);
        return run(seq, h, advance);
      };
      expectNoDivergence(await check(RUNS.pure, pure()));
      const control = await check(RUNS.pure, pure(utcDays));
      expect(control.failed).toBe(true);
    },
  );
});
