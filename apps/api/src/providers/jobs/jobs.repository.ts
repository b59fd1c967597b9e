/** SQL of the durable job queue (issue 25, decision 030): table `jobs`. Takes the database or a transaction. */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { jobs, users } from '../../db/schema.js';
import { mapSliced } from '../../lib/time-slice.js';

/** A job as a worker claimed it. `attempts` counts this claim. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  /** Where it goes (a mail's recipient domain), or null. */
  destination: string | null;
}

/**
 * How a claim shares a worker's slots between destinations (issue 39 item 2). A job without a destination is never
 * held back. `slow` destinations count as one destination together (`~slow`).
 */
export interface ClaimFairness {
  /** Most jobs of one destination a claim takes when none of it is in flight. */
  perDestination: number;
  /** Destinations of which no job may be claimed now (at their cap, or slow while the slow slot is taken). */
  full: readonly string[];
  /**
   * Destinations that answered slowly of late: together they take at most `remaining['~slow']` jobs, the first
   * listed first (the worker lists the one whose last job started longest ago first).
   */
  slow: readonly string[];
  /** Jobs a destination (or `~slow`) may still take, where fewer than `perDestination` (some are in flight). */
  remaining: Readonly<Record<string, number>>;
  /**
   * When the destinations whose jobs started most recently last started one (ISO 8601 UTC; at most `RECENT_MAX`):
   * when given, a claim ranks a job by the later of its `run_at` and its destination's last start, so a destination
   * that just had its turn waits behind jobs that were due before it (seventh re-run: with more attacker domains than
   * slots some attacker domain was always idle and older than another holder's code), and a destination never seen
   * ranks by its own `run_at` (eighth re-run: ranked first, fresh attacker domains overtook a holder's code without
   * end).
   */
  recent?: Readonly<Record<string, string>>;
  /**
   * Destinations whose last send succeeded within the slow bound (issue 39 item 2, ninth re-run). When given, every
   * other destination (never seen, forgotten, or slow) is _untrusted_: it takes at most `perUntrusted` jobs when none
   * of it is in flight, and the untrusted together at most `untrustedRemaining`, so the slots they cannot take stay
   * for the proven ones.
   */
  proven?: readonly string[];
  /** With `proven`: most jobs of one untrusted destination a claim takes when none of it is in flight (default 1). */
  perUntrusted?: number;
  /** With `proven`: jobs of untrusted destinations this claim may take, all of them together. */
  untrustedRemaining?: number;
}

/** Most destinations a claim orders by their last start (`ClaimFairness.recent`). */
export const RECENT_MAX = 200;

/** Most destinations a claim knows as proven fast (`ClaimFairness.proven`), the most recently proven kept. */
export const PROVEN_MAX = 1000;

/** The group of the slow destinations in `ClaimFairness.remaining`. */
export const SLOW_DESTINATIONS = '~slow';

/** Due jobs a claim looks at before it applies the per-destination caps (the index's first rows). */
const CLAIM_WINDOW = 200;

/** A job whose attempts ran out, as the operator lists it (no payload: it may hold an address or a sign-in code). */
export interface FailedJobRow {
  id: number;
  kind: string;
  attempts: number;
  lastError: string | null;
  failedAt: Date;
  createdAt: Date;
  /** The payload's `template` (a mail job's: `reminder`, `signInCode`, …), null for a kind without one. */
  template: string | null;
  /** The user id of the account whose e-mail address is the payload's recipient `to` (a mail's), else null. */
  recipientUserId: number | null;
}

/** Queue figures of one kind (metrics gauges). */
export interface JobKindStats {
  kind: string;
  /** Jobs not done and not failed (due, waiting for a retry, or claimed). */
  depth: number;
  /** Seconds since the oldest of them was enqueued (0 when none). */
  oldestAgeSeconds: number;
  /**
   * Seconds the longest-waiting due job (run_at passed, not failed; claimed or not) has been due: how late the
   * queue runs this kind (0 when none is due). A job waiting for its retry is not due.
   */
  oldestDueSeconds: number;
  /** Failed jobs kept for the operator. */
  failed: number;
}

export const jobsRepository = {
  /**
   * Inserts jobs in one statement with one JSON parameter (10,000 jobs are one string built in time slices, not
   * 40,000 bind parameters); a missing `runAt` is the database's now, a missing `priority` 0.
   */
  async insert(
    db: DbOrTx,
    rows: readonly { kind: string; payload: unknown; runAt?: Date; priority?: number; destination?: string }[],
  ): Promise<void> {
    if (!rows.length) return;
    const parts = await mapSliced(rows, (r) =>
      JSON.stringify({
        kind: r.kind,
        payload: r.payload,
        run_at: r.runAt ?? null,
        priority: r.priority ?? 0,
        destination: r.destination ?? null,
      }),
    );
    await db.execute(sql`insert into ${jobs} (kind, payload, run_at, priority, destination)
      select r.kind, r.payload, coalesce(r.run_at, now()), r.priority, r.destination
        from jsonb_to_recordset(${`[${parts.join(',')}]`}::jsonb)
          as r(kind text, payload jsonb, run_at timestamptz, priority integer, destination text)`);
  },

  /**
   * Claims at most `limit` due jobs of `kinds` (run_at ≤ now, not failed, no live lease), highest priority then
   * oldest first, skipping rows another transaction holds (`FOR UPDATE SKIP LOCKED`), and leases them until
   * `leaseUntil` counting the claim in `attempts`. One statement: a job is claimed by one worker at a time.
   *
   * `fairness` (issue 39 item 2): jobs of a `full` destination are skipped, and of the first due jobs
   * (`CLAIM_WINDOW`) at most `remaining[d]` (default `perDestination`) of each destination `d` are taken, the slow
   * destinations counting as one, so one destination never takes every slot; among the slow destinations, the one
   * listed first in `slow` goes first (their turns). With `fairness.proven`, a destination not listed there takes at
   * most `perUntrusted` and all such (and the slow) together at most `untrustedRemaining`.
   */
  async claim(
    db: DbOrTx,
    kinds: readonly string[],
    now: Date,
    leaseUntil: Date,
    limit: number,
    fairness: ClaimFairness = { perDestination: limit, full: [], slow: [], remaining: {} },
  ): Promise<ClaimedJob[]> {
    if (!kinds.length || limit <= 0) return [];
    const at = now.toISOString();
    const due = sql`failed_at is null and run_at <= ${at}::timestamptz
             and (locked_until is null or locked_until <= ${at}::timestamptz)`;
    const list = (names: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`;
    const proven = fairness.proven;
    // Untrusted: a destination not proven fast (never seen, forgotten, or slow); without `proven`, none is.
    const untrusted = proven
      ? sql`(destination is not null and (destination in ${list(fairness.slow)} or destination not in ${list(proven)}))`
      : sql`false`;
    const untrustedLeft = proven ? Math.max(0, fairness.untrustedRemaining ?? 0) : limit;
    const turnOrder = fairness.recent ? sql`turn_at,` : sql``;
    const result: unknown = await db.execute(sql`
      update ${jobs} j set locked_until = ${leaseUntil.toISOString()}::timestamptz, attempts = j.attempts + 1
        from (
          select id from ${jobs}
           where ${due}
             and id in (
               select id from (
                 select id, priority, run_at, turn_at, untrusted,
                        row_number() over (partition by untrusted order by priority desc, turn_at, run_at, id) as un
                   from (
                     select id, priority, run_at, grp, turn_at, untrusted,
                            row_number() over (partition by grp order by turn nulls last, priority desc, run_at, id) as rn
                       from (
                         select id, priority, run_at,
                                case when destination in ${list(fairness.slow)} then ${SLOW_DESTINATIONS} else destination end as grp,
                                (select s.turn from jsonb_array_elements_text(${JSON.stringify(fairness.slow)}::jsonb)
                                        with ordinality as s(destination, turn)
                                  where s.destination = ${jobs}.destination) as turn,
                                greatest(run_at, (${JSON.stringify(fairness.recent ?? {})}::jsonb ->> ${jobs}.destination)::timestamptz)
                                  as turn_at,
                                ${untrusted} as untrusted
                           from ${jobs}
                          where ${due}
                            and kind in (${sql.join(
                              kinds.map((k) => sql`${k}`),
                              sql`, `,
                            )})
                            and (destination is null or destination not in ${list(fairness.full)})
                            ${proven && untrustedLeft === 0 ? sql`and (destination is null or destination in ${list(proven)})` : sql``}
                          order by priority desc, ${turnOrder} run_at, id
                          limit ${CLAIM_WINDOW}
                       ) candidates
                   ) ranked
                  where grp is null
                     or rn <= coalesce((${JSON.stringify(fairness.remaining)}::jsonb ->> grp)::int,
                                       case when untrusted then ${fairness.perUntrusted ?? 1}::int else ${fairness.perDestination}::int end)
               ) capped
              where not untrusted or un <= ${untrustedLeft}
              order by priority desc, ${turnOrder} run_at, id
              limit ${limit}
             )
           order by priority desc, run_at, id
             for update skip locked
        ) due
       where j.id = due.id
      returning j.id, j.kind, j.payload, j.attempts, j.priority, j.destination,
                extract(epoch from j.run_at)::float8 as run_at_s`);
    type Row = {
      id: number | string;
      kind: string;
      payload: unknown;
      attempts: number;
      priority: number;
      destination: string | null;
    };
    const rows = (result as { rows: (Row & { run_at_s: number | string })[] }).rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      payload: r.payload,
      attempts: Number(r.attempts),
      priority: Number(r.priority),
      destination: r.destination ?? null,
      runAt: Number(r.run_at_s),
    }));
    // In the claim's order (RETURNING keeps none).
    return rows
      .sort((a, b) => b.priority - a.priority || a.runAt - b.runAt || a.id - b.id)
      .map(({ id, kind, payload, attempts, destination }) => ({ id, kind, payload, attempts, destination }));
  },

  /** A job's handler succeeded: the job is gone (whoever holds it now). */
  async complete(db: DbOrTx, id: number): Promise<void> {
    await db.delete(jobs).where(eq(jobs.id, id));
  },

  /**
   * A job's handler failed: it is tried again at `retryAt`, or kept as failed when `retryAt` is null. Only while the
   * claim is still this worker's (`leaseUntil` unchanged); a job another worker re-claimed is left to it.
   */
  async fail(db: DbOrTx, id: number, leaseUntil: Date, error: string, retryAt: Date | null, now: Date) {
    await db
      .update(jobs)
      .set(
        retryAt
          ? { runAt: retryAt, lockedUntil: null, lastError: error }
          : { failedAt: now, lockedUntil: null, lastError: error },
      )
      .where(and(eq(jobs.id, id), eq(jobs.lockedUntil, leaseUntil)));
  },

  /**
   * Failed jobs, newest failure first, with what the payload says the job was for (issue 41 point 8): its
   * `template`, and the user id of its recipient `to` (the address itself is never read out).
   */
  async failed(db: DbOrTx, limit: number): Promise<FailedJobRow[]> {
    const rows = await db
      .select({
        id: jobs.id,
        kind: jobs.kind,
        attempts: jobs.attempts,
        lastError: jobs.lastError,
        failedAt: jobs.failedAt,
        createdAt: jobs.createdAt,
        template: sql<string | null>`${jobs.payload} ->> 'template'`,
        recipientUserId: sql<number | null>`${users.id}`.mapWith((v: unknown) => (v === null ? null : Number(v))),
      })
      .from(jobs)
      .leftJoin(users, sql`${users.email} = ${jobs.payload} ->> 'to'`)
      .where(isNotNull(jobs.failedAt))
      .orderBy(desc(jobs.failedAt), desc(jobs.id))
      .limit(limit);
    return rows.map((r) => ({ ...r, failedAt: r.failedAt ?? r.createdAt }));
  },

  /** Puts a failed job back in the queue, due at `now` with its attempts reset. @returns whether it was failed. */
  async retry(db: DbOrTx, id: number, now: Date): Promise<boolean> {
    const rows = await db
      .update(jobs)
      .set({ failedAt: null, attempts: 0, runAt: now, lockedUntil: null })
      .where(and(eq(jobs.id, id), isNotNull(jobs.failedAt)))
      .returning({ id: jobs.id });
    return rows.length > 0;
  },

  /** Depth, oldest age and failed count per kind (the database's clock). */
  async stats(db: DbOrTx): Promise<JobKindStats[]> {
    const rows = await db
      .select({
        kind: jobs.kind,
        depth: sql<number>`count(*) filter (where ${jobs.failedAt} is null)`.mapWith(Number),
        oldest:
          sql<number>`coalesce(extract(epoch from now() - min(${jobs.createdAt}) filter (where ${jobs.failedAt} is null)), 0)`.mapWith(
            Number,
          ),
        due: sql<number>`coalesce(extract(epoch from now() - min(${jobs.runAt}) filter (where ${jobs.failedAt} is null and ${jobs.runAt} <= now())), 0)`.mapWith(
          Number,
        ),
        failed: sql<number>`count(*) filter (where ${jobs.failedAt} is not null)`.mapWith(Number),
      })
      .from(jobs)
      .groupBy(jobs.kind)
      .orderBy(jobs.kind);
    return rows.map((r) => ({
      kind: r.kind,
      depth: r.depth,
      oldestAgeSeconds: Math.max(0, Math.floor(r.oldest)),
      oldestDueSeconds: Math.max(0, Math.floor(r.due)),
      failed: r.failed,
    }));
  },
};
