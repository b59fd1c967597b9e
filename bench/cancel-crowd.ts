/**
 * Cancelling a stadium (issue 46, "at scale"; `npm run bench` runs it, or `npx tsx bench/cancel-crowd.ts` alone after
 * `npm run build`): an event of BENCH_CANCEL_TICKETS (default 20,000) holders with one ticket each, seeded in SQL
 * (`bench/seeded-server.ts`), on a throw-away PostgreSQL (BENCH_CANCEL_DATABASES, default `postgres`; `pglite` too if
 * named), its e-mail sent to an SMTP sink as slow as a real provider (BENCH_MAIL_DELAY_MS, default 150 ms a message,
 * `bench/mail-crowd.ts`'s sink). The organiser cancels it through the API (`POST /v1/org/events/{externalId}/cancel`);
 * meanwhile, until every holder's e-mail reached the sink:
 *
 * - a holder calls `/v1/auth/me` one request at a time (p50, p99 in milliseconds: the instance's latency while the run
 *   goes; target p99 ≤ 200 ms, the gate's);
 * - one new person a second asks for a sign-in code (the wait from the request's answer to the sink accepting the
 *   code, p99; target ≤ 5 s, issue 44's: codes go before the cancel's bulk e-mails).
 *
 * Figures: the cancel request's time; the run's time (the cancel's answer until `events.cancel_cursor` is null: every
 * holder's e-mail and wallet update queued; target ≤ 5 minutes); the time until the sink accepted the last holder's
 * e-mail (the mail lane's pace: JOB_MAIL_CONCURRENCY slots over the sink's delay).
 */
import pg from 'pg';
import { startPostgres } from '../scripts/postgres.js';
import { BENCH_ADMIN_KEY } from './import-stall.js';
import { percentile, requestCode, startSink } from './mail-crowd.js';
import { startSeededServer } from './seeded-server.js';

const TICKETS = Number(process.env.BENCH_CANCEL_TICKETS ?? 20_000);
const DELAY_MS = Number(process.env.BENCH_MAIL_DELAY_MS ?? 150);
const DATABASES = (process.env.BENCH_CANCEL_DATABASES ?? 'postgres').split(',').filter(Boolean) as (
  'pglite' | 'postgres'
)[];
/** The longest the bench waits for the last holder's e-mail, ms. */
const DRAIN_LIMIT_MS = 20 * 60_000;
const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One database's figures (milliseconds). */
export interface CancelCrowd {
  tickets: number;
  delayMs: number;
  cancelStatus: number;
  requestMs: number;
  /** The cancel's answer until every holder's e-mail and wallet update was queued (the run's cursor cleared). */
  runMs: number | null;
  /** The cancel's answer until the sink accepted the last holder's e-mail; null: not within DRAIN_LIMIT_MS. */
  allToldMs: number | null;
  told: number;
  me: { count: number; p50Ms: number; p99Ms: number; failed: number };
  codes: { count: number; p50Ms: number; p99Ms: number; missing: number };
}

async function ok(r: Response, what: string) {
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
  return r;
}

/** Runs SQL on the seeded server's database: PostgreSQL by URL (PGlite's directory is the running server's own). */
async function pgQuery(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** One database: seed, give the event an externalId and the organisation a key, cancel, measure. */
async function onDatabase(db: 'pglite' | 'postgres', databaseUrl: string | null): Promise<CancelCrowd> {
  const sink = await startSink(DELAY_MS);
  // PGlite's directory belongs to the running server: the event's externalId is set with the seed.
  const seeded = await startSeededServer(databaseUrl, TICKETS, {
    env: { SMTP_URL: sink.url, ADMIN_KEY: BENCH_ADMIN_KEY, OTP_RESEND_SECONDS: '0' },
    afterSeed: `update events set external_id = 'stadium'`,
  });
  try {
    const { base } = seeded;
    const orgId = seeded.organisation;
    const { apiKey } = (await (
      await ok(
        await fetch(`${base}/v1/admin/organisations/${orgId}/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${BENCH_ADMIN_KEY}` },
        }),
        'api key',
      )
    ).json()) as { apiKey: string };
    const holderMails = () => [...sink.accepted.keys()].filter((k) => k.startsWith('gate')).length;

    // The probes run from just before the cancel until the last holder's e-mail is accepted.
    let running = true;
    const meTimes: number[] = [];
    let meFailed = 0;
    const meProbe = (async () => {
      const authorization = seeded.holders[0].authorization;
      while (running) {
        const t = performance.now();
        const r = await fetch(`${base}/v1/auth/me`, { headers: { authorization } }).catch(() => null);
        if (r?.ok) meTimes.push(performance.now() - t);
        else meFailed++;
        await r?.arrayBuffer();
        await sleep(50);
      }
    })();
    const codeWaits: number[] = [];
    let codesMissing = 0;
    const codeProbe = (async () => {
      const waits: Promise<void>[] = [];
      for (let i = 0; running; i++) {
        const email = `cancel-probe-${i}@mail-a.test`;
        waits.push(
          requestCode(base, email).then(
            async ({ answeredAt }) => {
              const at = await sink.acceptedAt(email, 60_000);
              if (at === null) codesMissing++;
              else codeWaits.push(at - answeredAt);
            },
            () => void codesMissing++,
          ),
        );
        await sleep(1000);
      }
      await Promise.all(waits);
    })();

    await sleep(1000);
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/org/events/stadium/cancel`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ reason: 'The venue is closed. Your ticket shop refunds every ticket within 14 days.' }),
    });
    const requestMs = performance.now() - t0;
    await res.arrayBuffer();
    let runMs: number | null = null;
    let allToldMs: number | null = null;
    for (const deadline = t0 + DRAIN_LIMIT_MS; performance.now() < deadline; await sleep(500)) {
      if (runMs === null && databaseUrl) {
        const [row] = await pgQuery(databaseUrl, `select cancel_cursor from events where external_id = 'stadium'`);
        if (row && row.cancel_cursor === null) runMs = performance.now() - t0;
      }
      if (holderMails() >= TICKETS) {
        allToldMs = performance.now() - t0;
        break;
      }
    }
    running = false;
    await Promise.all([meProbe, codeProbe]);
    meTimes.sort((a, b) => a - b);
    codeWaits.sort((a, b) => a - b);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return {
      tickets: TICKETS,
      delayMs: DELAY_MS,
      cancelStatus: res.status,
      requestMs: Math.round(requestMs),
      // On PGlite the run's cursor cannot be read beside the server: its end is the last e-mail's queueing at the latest.
      runMs: runMs === null ? null : Math.round(runMs),
      allToldMs: allToldMs === null ? null : Math.round(allToldMs),
      told: holderMails(),
      me: {
        count: meTimes.length,
        p50Ms: r1(percentile(meTimes, 50)),
        p99Ms: r1(percentile(meTimes, 99)),
        failed: meFailed,
      },
      codes: {
        count: codeWaits.length,
        p50Ms: Math.round(percentile(codeWaits, 50)),
        p99Ms: Math.round(percentile(codeWaits, 99)),
        missing: codesMissing,
      },
    };
  } finally {
    await seeded.stop();
    await sink.close();
  }
}

/**
 * Runs the cancel on each database of BENCH_CANCEL_DATABASES, printing each figure.
 * @returns the figures by database (`postgres`, `pglite`)
 */
export async function benchCancelCrowd(): Promise<Record<string, CancelCrowd>> {
  const out: Record<string, CancelCrowd> = {};
  const postgres = DATABASES.includes('postgres') ? await startPostgres() : null;
  try {
    for (const db of DATABASES) {
      const c = await onDatabase(db, db === 'postgres' ? postgres!.url('postgres') : null);
      console.log(
        `  ${db.padEnd(9)} cancel of ${c.tickets} tickets: request ${c.cancelStatus} in ${c.requestMs} ms, run ${c.runMs ?? '?'} ms, all ${c.told} holders' e-mails at the sink after ${c.allToldMs ?? 'never'} ms (${c.delayMs} ms a message); /auth/me p50 ${c.me.p50Ms} ms, p99 ${c.me.p99Ms} ms (${c.me.count}, ${c.me.failed} failed); codes p50 ${c.codes.p50Ms} ms, p99 ${c.codes.p99Ms} ms (${c.codes.count}, ${c.codes.missing} missing)`,
      );
      out[db] = c;
    }
  } finally {
    postgres?.stop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Cancelling a stadium: ${TICKETS} tickets, SMTP sink ${DELAY_MS} ms per message`);
  console.log(JSON.stringify(await benchCancelCrowd(), null, 2));
}
