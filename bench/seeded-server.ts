/**
 * A built server (bench/server.ts) on an event of `count` holders, each with one ticket to a live event and a
 * sign-in session: seeded with set-based SQL (`generate_series`) and their access tokens minted with the server's
 * JWT_SECRET, not signed in one by one. Used by the gate simulation (bench/gate.ts) and the QR pass's cost
 * (bench/qr-cost.ts). The server has its own keys (the bench signs tokens and pass codes), no demo data and the
 * rate limits out of the way.
 */
import { createSecretKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { SignJWT } from 'jose';
import pg from 'pg';
import { freePort } from '../scripts/postgres.js';
import { startBuiltServer, stopBuiltServer } from './server.js';

const JWT_SECRET = 'gate-bench-jwt-secret-'.padEnd(48, 'x');
/** The server's pass signing key (PASS_SIGNING_KEY): the bench signs door codes with it. */
export const PASS_SIGNING_KEY = new Uint8Array(32).fill(7);
/** The door scanners' key (SCANNER_KEY). */
export const SCANNER_KEY = 'gate-bench-scanner-key';

/** A seeded holder: ids and the `Bearer …` header of an access token. */
export interface Holder {
  userId: number;
  userTicketId: number;
  authorization: string;
}

/** The bench's event and holders, in set-based SQL (runs on either driver through `query`). */
async function seed(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>, count: number) {
  const one = async (sql: string) => (await query(sql)).rows[0];
  const org = (await one(`insert into organisations (slug, name) values ('gate-bench', 'Gate bench') returning id`))
    .id as number;
  const event = (
    await one(`insert into events (organisation_id, name, city, country, venue, address1, time_zone, starts_at, ends_at)
      values (${org}, 'Gate bench', 'Wellington', 'NZ', 'Bench Stadium', '1 Bench Street', 'Pacific/Auckland',
              now() - interval '1 hour', now() + interval '6 hours') returning id`)
  ).id as number;
  const type = (
    await one(`insert into ticket_types (organisation_id, event_id, name, price_cents, currency_code, max_resale_price_cents)
      values (${org}, ${event}, 'General Admission', 5000, 'NZD', 5000) returning id`)
  ).id as number;
  await query(`insert into users (email, nickname, username_suffix)
    select 'gate' || g || '@bench.test', 'gatebench', g from generate_series(1, ${count}) g`);
  await query(`insert into user_tickets (organisation_id, ticket_type_id, holder_id)
    select ${org}, ${type}, id from users where nickname = 'gatebench'`);
  await query(`insert into auth_sessions (id, user_id, expires_at)
    select gen_random_uuid(), id, now() + interval '1 day' from users where nickname = 'gatebench'`);
  const { rows } = await query(`select u.id as user_id, t.id as ticket_id, s.id as session_id
    from users u join user_tickets t on t.holder_id = u.id join auth_sessions s on s.user_id = u.id
    where u.nickname = 'gatebench' order by u.id`);
  // The planner's statistics, as autovacuum would have them for tables this size (it runs a minute after the load).
  await query('analyze');
  return { org, event, rows };
}

/** Access tokens as the server signs them (auth.tokens.ts): HS256, audience ticket-panel, issuer PUBLIC_URL. */
async function holdersOf(rows: Record<string, unknown>[], issuer: string): Promise<Holder[]> {
  const key = createSecretKey(new TextEncoder().encode(JWT_SECRET));
  const iat = Math.floor(Date.now() / 1000);
  return Promise.all(
    rows.map(async (r) => ({
      userId: Number(r.user_id),
      userTicketId: Number(r.ticket_id),
      authorization: `Bearer ${await new SignJWT({ sid: String(r.session_id) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(r.user_id))
        .setAudience('ticket-panel')
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .sign(key)}`,
    })),
  );
}

/** A started, seeded server; `stop()` ends it and removes its data directory. */
export interface SeededServer {
  base: string;
  pid: number;
  /** The seeded organisation's and event's ids (organisations.id, events.id). */
  organisation: number;
  event: number;
  holders: Holder[];
  stop: () => Promise<void>;
}

/**
 * Starts the built server on PostgreSQL (`databaseUrl`) or PGlite (null) and seeds `count` holders. PGlite's data
 * directory is the server's alone, so it is seeded with the server stopped and the server started again.
 * @param opts.env more server variables (e.g. QR_TTL_SECONDS, METRICS_TOKEN)
 * @param opts.nodeArgs node options for the server (e.g. `--cpu-prof`)
 * @param opts.afterSeed SQL run on the database right after the seed (e.g. an event's externalId)
 */
export async function startSeededServer(
  databaseUrl: string | null,
  count: number,
  opts: { env?: Record<string, string>; nodeArgs?: string[]; afterSeed?: string } = {},
): Promise<SeededServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tp-seeded-'));
  const start = () =>
    startBuiltServer({
      port,
      dataDir,
      nodeArgs: opts.nodeArgs,
      env: {
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        JWT_SECRET,
        PASS_SIGNING_KEY: Buffer.from(PASS_SIGNING_KEY).toString('base64url'),
        SCANNER_KEY,
        SEED_DEMO: 'false',
        OTP_REQUESTS_PER_IP_PER_MINUTE: '100000000',
        DOOR_SYNC_PER_IP_PER_MINUTE: '100000',
        ...opts.env,
      },
    });
  try {
    // Migrate (the server's start), then seed.
    let server = await start();
    let seeded: Awaited<ReturnType<typeof seed>>;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      seeded = await seed((sql) => client.query(sql), count);
      if (opts.afterSeed) await client.query(opts.afterSeed);
      await client.end();
    } else {
      await stopBuiltServer(server.child);
      const db = await PGlite.create({ dataDir: join(dataDir, 'pglite') });
      seeded = await seed((sql) => db.query(sql), count);
      if (opts.afterSeed) await db.query(opts.afterSeed);
      await db.close();
      server = await start();
    }
    const { child, base } = server;
    return {
      base,
      pid: child.pid!,
      organisation: seeded.org,
      event: seeded.event,
      holders: await holdersOf(seeded.rows, base),
      stop: async () => {
        await stopBuiltServer(child);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
