/**
 * Mail at the speed of a crowd (issue 44's first deliverable; `npm run bench` runs it, or `npx tsx
 * bench/mail-crowd.ts` alone after `npm run build`): how long a person waits for a mail while the mail lane is busy
 * with an organiser's bulk mail, with an SMTP server as slow as a real provider.
 *
 * An SMTP sink in this process takes BENCH_MAIL_DELAY_MS (default 150) per message: it answers DATA's end that much
 * later, and a message counts as _accepted_ when it answers. It counts the connections opened to it; each new one
 * costs about 100 ms before the sink's greeting (smtp-server's early-talker pause), as a TLS and SMTP handshake with a
 * distant provider does. A real API
 * (the compiled server, `bench/server.ts`) sends its mail there (SMTP_URL), on each database of
 * BENCH_MAIL_DATABASES (default `pglite,postgres`), a fresh server and a fresh database per scenario:
 *
 * - **crowd**: an import through the organiser API of 5,000 rows (5,000 bulk ticket mails to one domain), and once it
 *   answered, 1,000 sign-in code requests spread evenly over 60 s, distinct e-mails over four domains (one of them
 *   the import's). The per-IP sign-in limits are raised for the bench (OTP_REQUESTS_PER_IP_PER_MINUTE,
 *   OTP_RESEND_SECONDS 0): every request comes from 127.0.0.1. Each code's wait is "accepted by the sink" minus
 *   "request answered" (both this process's clock), milliseconds; p50 and p99. Target: p99 ≤ 5 s.
 * - **transactional**: a holder signs in and holds one ticket; an import of 10,000 rows queues 10,000 bulk mails;
 *   two seconds after it answered (the bulk draining), the holder gifts the ticket to an address of the bulk's
 *   domain. The gift notice's wait: "accepted by the sink" minus "gift answered". Target: ≤ 10 s.
 *
 * BENCH_MAIL_SCALE (default 1) scales the counts and the 60 s together: 0.1 is a quick run (100 codes over 6 s
 * behind 500 bulk mails; 1,000 bulk mails before the gift) of well under a minute per database. The server takes the
 * bench's own environment, so `JOB_MAIL_CONCURRENCY=4 npx tsx bench/mail-crowd.ts` measures another setting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { freePort, startPostgres, type RunningPostgres } from '../scripts/postgres.js';
import { BENCH_ADMIN_KEY } from './import-stall.js';
import { startBuiltServer, stopBuiltServer } from './server.js';

const SCALE = Number(process.env.BENCH_MAIL_SCALE ?? 1);
/** Milliseconds the sink takes per message (a real provider's 100–300 ms). */
const DELAY_MS = Number(process.env.BENCH_MAIL_DELAY_MS ?? 150);
const SIGN_INS = Math.max(1, Math.round(1000 * SCALE));
const CROWD_SECONDS = 60 * SCALE;
const CROWD_BULK = Math.round(5000 * SCALE);
const DRAIN_BULK = Math.round(10_000 * SCALE);
const DATABASES = (process.env.BENCH_MAIL_DATABASES ?? 'pglite,postgres').split(',').filter(Boolean) as (
  'pglite' | 'postgres'
)[];
/** The bulk mails' domain; the codes go to it and to three others. */
const BULK_DOMAIN = 'bench.test';
const CODE_DOMAINS = [BULK_DOMAIN, 'mail-a.test', 'mail-b.test', 'mail-c.test'];
/** How long the bench waits for a mail it measures before counting it missing, ms. */
const WAIT_MS = 120_000;

const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The figures of one database's run (milliseconds). */
export interface MailCrowd {
  delayMs: number;
  crowd: {
    signIns: number;
    seconds: number;
    bulk: number;
    failed: number;
    missing: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    /** Bulk mails the sink had not accepted yet when the last code request answered: still draining. */
    bulkLeftAtEnd: number;
    connections: number;
    messages: number;
  };
  transactional: {
    bulk: number;
    /** Bulk mails not yet accepted when the gift answered. */
    bulkLeft: number;
    ms: number | null;
    connections: number;
    messages: number;
  };
}

/** The SMTP sink: accepts every message `delayMs` after its data ends; keeps when each recipient's first was accepted. */
export async function startSink(delayMs: number) {
  const accepted = new Map<string, number>();
  const raw = new Map<string, string[]>();
  let connections = 0;
  let messages = 0;
  let bulk = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        setTimeout(() => {
          const at = performance.now();
          messages++;
          for (const r of session.envelope.rcptTo) {
            const to = r.address.toLowerCase();
            if (to.startsWith('fan-')) bulk++;
            else raw.set(to, [...(raw.get(to) ?? []), Buffer.concat(chunks).toString('utf8')]);
            if (!accepted.has(to)) accepted.set(to, at);
          }
          callback();
        }, delayMs);
      });
    },
  });
  server.on('error', () => undefined);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    stats: () => ({ connections, messages, bulk }),
    /** The time (performance.now()) the first mail to `to` was accepted, waiting up to `timeoutMs`; null: none. */
    async acceptedAt(to: string, timeoutMs = WAIT_MS): Promise<number | null> {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(20)) {
        const at = accepted.get(to);
        if (at !== undefined) return at;
      }
      return null;
    },
    /** The six-digit code of a mail to `to` (not a bulk one) whose subject has one, waiting up to `timeoutMs`. */
    async codeOf(to: string, timeoutMs = WAIT_MS): Promise<string> {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(20))
        for (const m of raw.get(to) ?? []) {
          const code = /\b(\d{6})\b/.exec((await simpleParser(m)).subject ?? '')?.[1];
          if (code) return code;
        }
      throw new Error(`no code mailed to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Sink = Awaited<ReturnType<typeof startSink>>;

async function ok(r: Response, what: string) {
  if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
  return r;
}

/** A new organisation with one event and one giftable ticket type (`ga`); returns its API key. */
async function organisation(base: string, slug: string): Promise<string> {
  const org = (await (
    await ok(
      await fetch(`${base}/v1/admin/organisations`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${BENCH_ADMIN_KEY}` },
        body: JSON.stringify({ slug, name: `Bench ${slug}` }),
      }),
      'create organisation',
    )
  ).json()) as { apiKey: string };
  const headers = { ...json, authorization: `Bearer ${org.apiKey}` };
  const startsAt = new Date(Date.now() + 10 * 86_400_000);
  await ok(
    await fetch(`${base}/v1/org/events/evt-1`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        name: 'Stadium',
        venue: 'Arena',
        city: 'Sydney',
        country: 'AU',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + 8 * 3600_000).toISOString(),
        timeZone: 'Australia/Sydney',
      }),
    }),
    'put event',
  );
  await ok(
    await fetch(`${base}/v1/org/ticket-types/ga`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        eventExternalId: 'evt-1',
        name: 'GA',
        priceCents: 8900,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
      }),
    }),
    'put ticket type',
  );
  return org.apiKey;
}

/** Imports tickets (one ticket mail each, bulk class) through the organiser API; resolves when it answered. */
async function importTickets(base: string, apiKey: string, rows: { id: string; email: string }[]) {
  const csv = ['externalId,ticketTypeExternalId,holderEmail', ...rows.map((r) => `${r.id},ga,${r.email}`)].join('\n');
  await ok(
    await fetch(`${base}/v1/org/tickets/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
      body: csv,
      signal: AbortSignal.timeout(600_000),
    }),
    'import',
  );
}

const fans = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, email: `fan-${prefix}-${i}@${BULK_DOMAIN}` }));

/** Asks for a sign-in code; resolves with its session id and when it answered (performance.now()). */
export async function requestCode(base: string, email: string) {
  const r = await ok(
    await fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email }),
      signal: AbortSignal.timeout(30_000),
    }),
    'code request',
  );
  const { sessionId } = (await r.json()) as { sessionId: string };
  return { sessionId, answeredAt: performance.now() };
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** Scenario (a): 1,000 code requests over 60 s while an import's 5,000 ticket mails drain. */
async function crowd(base: string, sink: Sink): Promise<MailCrowd['crowd']> {
  const apiKey = await organisation(base, `crowd-${Date.now()}`);
  await importTickets(base, apiKey, fans('crowd', CROWD_BULK));
  const answered = new Map<string, number>();
  let failed = 0;
  const requests: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < SIGN_INS; i++) {
    const wait = started + (i * CROWD_SECONDS * 1000) / SIGN_INS - performance.now();
    if (wait > 0) await sleep(wait);
    const email = `crowd-${i}@${CODE_DOMAINS[i % CODE_DOMAINS.length]}`;
    requests.push(
      requestCode(base, email).then(
        (r) => void answered.set(email, r.answeredAt),
        () => void failed++,
      ),
    );
  }
  await Promise.all(requests);
  const bulkLeftAtEnd = CROWD_BULK - sink.stats().bulk;
  const waits: number[] = [];
  let missing = 0;
  for (const [email, at] of answered) {
    const got = await sink.acceptedAt(email);
    if (got === null) missing++;
    else waits.push(got - at);
  }
  waits.sort((a, b) => a - b);
  const { connections, messages } = sink.stats();
  return {
    signIns: SIGN_INS,
    seconds: CROWD_SECONDS,
    bulk: CROWD_BULK,
    failed,
    missing,
    p50Ms: Math.round(percentile(waits, 50)),
    p99Ms: Math.round(percentile(waits, 99)),
    maxMs: Math.round(waits.at(-1) ?? NaN),
    bulkLeftAtEnd,
    connections,
    messages,
  };
}

/** Scenario (b): a gift notice sent while 10,000 bulk mails drain; its time from the gift's answer to the sink. */
async function transactional(base: string, sink: Sink): Promise<MailCrowd['transactional']> {
  const apiKey = await organisation(base, `gift-${Date.now()}`);
  const giver = `giver@${BULK_DOMAIN}`;
  const friend = `friend@${BULK_DOMAIN}`;
  await importTickets(base, apiKey, [{ id: 'gift-1', email: giver }]);
  const { sessionId } = await requestCode(base, giver);
  const otp = await sink.codeOf(giver);
  const verified = (await (
    await ok(
      await fetch(`${base}/v1/auth/verifyLoginRequest`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: giver, session: sessionId, otp }),
      }),
      'verify',
    )
  ).json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${verified.accessToken}` };
  const tickets = (await (
    await ok(await fetch(`${base}/v1/list/ticket_listing?status=UPCOMING`, { headers: auth }), 'ticket list')
  ).json()) as { userTicketId: number }[];
  if (!tickets[0]) throw new Error('the giver holds no ticket');
  const before = sink.stats();
  await importTickets(base, apiKey, fans('drain', DRAIN_BULK));
  await sleep(2000);
  await ok(
    await fetch(`${base}/v1/mobile/giftTicket`, {
      method: 'POST',
      headers: { ...json, ...auth },
      body: JSON.stringify({ userTicketId: tickets[0].userTicketId, username: friend }),
    }),
    'gift',
  );
  const giftedAt = performance.now();
  const bulkLeft = DRAIN_BULK - (sink.stats().bulk - before.bulk);
  const got = await sink.acceptedAt(friend);
  const { connections, messages } = sink.stats();
  return {
    bulk: DRAIN_BULK,
    bulkLeft,
    ms: got === null ? null : Math.round(got - giftedAt),
    connections: connections - before.connections,
    messages: messages - before.messages,
  };
}

/** A fresh database on `postgres` (a `create database`), its URL. */
async function freshDatabase(postgres: RunningPostgres, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: postgres.url('postgres') });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  return postgres.url(name);
}

/** One scenario on a fresh server (and a fresh database) with a fresh sink. */
async function onFreshServer<T>(databaseUrl: string | null, run: (base: string, sink: Sink) => Promise<T>) {
  const sink = await startSink(DELAY_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-bench-mail-'));
  const server = await startBuiltServer({
    dataDir,
    env: {
      SMTP_URL: sink.url,
      ADMIN_KEY: BENCH_ADMIN_KEY,
      OTP_RESEND_SECONDS: '0',
      OTP_REQUESTS_PER_IP_PER_MINUTE: '1000000',
      OTP_VERIFIES_PER_IP_PER_MINUTE: '1000000',
      IMPORT_BACKGROUND_ROWS: String(Math.max(CROWD_BULK, DRAIN_BULK)),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  try {
    return await run(server.base, sink);
  } finally {
    await stopBuiltServer(server.child);
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs both scenarios on each database of BENCH_MAIL_DATABASES, printing each figure.
 * @returns the figures by database (`pglite`, `postgres`)
 */
export async function benchMailCrowd(): Promise<Record<string, MailCrowd>> {
  const out: Record<string, MailCrowd> = {};
  const postgres = DATABASES.includes('postgres') ? await startPostgres() : null;
  try {
    for (const db of DATABASES) {
      const url = async (name: string) => (db === 'postgres' ? freshDatabase(postgres!, name) : null);
      const c = await onFreshServer(await url('mail_crowd'), crowd);
      console.log(
        `  ${db.padEnd(9)} crowd: ${c.signIns} codes over ${c.seconds} s behind ${c.bulk} bulk mails (${c.bulkLeftAtEnd} left at the end): code p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms, max ${c.maxMs} ms; ${c.failed} failed, ${c.missing} missing; ${c.messages} messages over ${c.connections} SMTP connections`,
      );
      const t = await onFreshServer(await url('mail_drain'), transactional);
      console.log(
        `  ${db.padEnd(9)} gift notice behind ${t.bulk} bulk mails (${t.bulkLeft} left): ${t.ms ?? 'never'} ms; ${t.messages} messages over ${t.connections} SMTP connections`,
      );
      out[db] = { delayMs: DELAY_MS, crowd: c, transactional: t };
    }
  } finally {
    postgres?.stop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Mail at the speed of a crowd: SMTP sink ${DELAY_MS} ms per message, scale ${SCALE}`);
  console.log(JSON.stringify(await benchMailCrowd(), null, 2));
}
