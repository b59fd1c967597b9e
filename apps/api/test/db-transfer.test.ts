/**
 * Out of the embedded database (issue 25, decision 033): a real server on PGlite gets a signed-in holder, an
 * avatar, an organisation API key, a door key and a queued webhook delivery; it is stopped, `db:export` writes its
 * DATA_DIR's database, `db:import` loads it into an empty PostgreSQL database, and a server on PostgreSQL with the
 * DATA_DIR's other files copied keeps all of it: the holder's refresh token still works. PostgreSQL project only
 * (the target is a server), like the import's refusal of a database in use (issue 39); the export's file mode is
 * checked on both projects (the export reads PGlite only).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import { openDatabase } from '../src/db/client.js';
import { INSTANCE_LOCK_KEY } from '../src/db/instance-lock.js';
import { otherConnections } from '../src/db/transfer.js';
import { createTestApp, freshPostgresUrl, onPostgres } from './helper.js';
import { bundledEntry, signInOver, startServerProcess, type ServerProcess } from './server-process.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../../..');
// scripts/db-transfer.ts, bundled for this run (test/setup/server-bundle.ts), from the root as `npm run` does.
const transfer = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [bundledEntry('db-transfer.js'), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...env },
  });
const json = (body: unknown) => ({
  method: 'PUT',
  headers: { 'content-type': 'application/json', authorization: '' },
  body: JSON.stringify(body),
});
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const servers: ServerProcess[] = [];
const temp: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(onPostgres())('db:export from PGlite, db:import into PostgreSQL', () => {
  it(
    'keeps holders, tickets, sessions, keys, door keys, the webhook queue and avatars',
    { timeout: 240_000 },
    async () => {
      const env = { WEBHOOK_WORKER_INTERVAL_SECONDS: '0', WEBHOOK_ALLOW_LOCAL_URLS: 'true' };
      const before = await startServerProcess(env);
      servers.push(before);
      const url = before.url;
      const orgKey = readFileSync(join(before.dataDir, 'demo-org-api-key'), 'utf8').trim();

      // A holder signs in and sets an avatar; the organisation adds a door key and a webhook endpoint, then issues
      // a ticket (a delivery queued: the worker is off).
      const holder = await signInOver(url, 'mover@example.com');
      const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3080c0' } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
      const avatar = await fetch(`${url}/v1/auth/avatar`, {
        method: 'POST',
        headers: bearer(holder.accessToken),
        body: form,
      });
      expect(avatar.status, await avatar.clone().text()).toBe(200);
      const picture = ((await avatar.json()) as { picture: string }).picture;
      const doorKey = (await (
        await fetch(`${url}/v1/org/door-keys`, {
          ...json({ name: 'North gate' }),
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(orgKey) },
        })
      ).json()) as { id: number; key: string };
      expect(doorKey.key).toMatch(/^tpd_/);
      const hook = await fetch(`${url}/v1/org/webhooks`, {
        ...json({ url: 'http://127.0.0.1:9/hook', events: ['ticket.issued'] }),
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(orgKey) },
      });
      expect(hook.status).toBe(201);
      const put = (base: string, path: string, body: unknown) =>
        fetch(`${base}/v1/org/${path}`, {
          ...json(body),
          headers: { 'content-type': 'application/json', ...bearer(orgKey) },
        });
      const event = await put(url, 'events/evt-move', {
        name: 'Harbour Lights',
        venue: 'The Domain',
        city: 'Sydney',
        country: 'AU',
        timeZone: 'Australia/Sydney',
        startsAt: '2030-03-06T14:00:00+11:00',
        endsAt: '2030-03-06T23:00:00+11:00',
      });
      expect(event.status, await event.clone().text()).toBe(201);
      const type = await put(url, 'ticket-types/ga-move', {
        eventExternalId: 'evt-move',
        name: 'General Admission',
        priceCents: 8900,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
      });
      expect(type.status, await type.clone().text()).toBe(201);
      const types = [{ externalId: 'ga-move' }];
      const issued = await put(url, 'tickets/MOVE-1', {
        ticketTypeExternalId: types[0].externalId,
        holderEmail: 'mover@example.com',
      });
      expect(issued.status, await issued.clone().text()).toBe(201);
      const listing = async (base: string, token: string) => {
        const r = await fetch(`${base}/v1/list/ticket_listing?status=UPCOMING`, { headers: bearer(token) });
        expect(r.status).toBe(200);
        return (await r.json()) as unknown[];
      };
      const ticketsBefore = await listing(url, holder.accessToken);
      expect(ticketsBefore.length).toBeGreaterThan(0);

      // The export refuses while the server has the database open, then runs once it has stopped.
      const out = join(mkdtempSync(join(tmpdir(), 'tp-export-')), 'export.jsonl');
      temp.push(resolve(out, '..'));
      const refused = await transfer(['export', '--out', out], { DATA_DIR: before.dataDir }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('postmaster.pid') as string });
      before.child.kill('SIGTERM');
      expect(await before.exited).toBe(0);
      const exported = await transfer(['export', '--out', out], { DATA_DIR: before.dataDir });
      expect(exported.stdout).toMatch(/exported \d+ rows of \d+ tables/);

      // Into an empty PostgreSQL database; a second import into it is refused, --force replaces.
      const databaseUrl = await freshPostgresUrl({ empty: true });
      const imported = await transfer(['import', '--in', out], { DATABASE_URL: databaseUrl });
      expect(imported.stdout).toMatch(/imported \d+ rows/);
      const again = await transfer(['import', '--in', out], { DATABASE_URL: databaseUrl }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('--force') as string });
      await transfer(['import', '--in', out, '--force'], { DATABASE_URL: databaseUrl });

      // A cut file is refused and writes nothing (all or nothing).
      const cut = `${out}.cut`;
      writeFileSync(cut, readFileSync(out, 'utf8').split('\n').slice(0, -3).join('\n'));
      const emptyUrl = await freshPostgresUrl({ empty: true });
      const cutRun = await transfer(['import', '--in', cut], { DATABASE_URL: emptyUrl }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(cutRun).toMatchObject({ code: 1 });
      const emptyCheck = new pg.Client({ connectionString: emptyUrl });
      await emptyCheck.connect();
      expect((await emptyCheck.query('select count(*)::int as n from users')).rows[0]).toEqual({ n: 0 });
      await emptyCheck.end();

      // Row counts match table by table.
      const counts = async (client: pg.Client) => {
        const tables = await client.query<{ t: string }>(
          `select schemaname || '.' || tablename as t from pg_tables where schemaname = 'public' order by 1`,
        );
        const result: Record<string, number> = {};
        for (const { t } of tables.rows)
          result[t] = (await client.query<{ n: number }>(`select count(*)::int as n from ${t}`)).rows[0].n;
        return result;
      };
      // The file's table lines, each followed by its rows (a row is never read as a table line).
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      const announced: Record<string, number> = {};
      for (let i = 1; i < lines.length; i++) {
        const line = JSON.parse(lines[i]) as { table?: string; rows?: number };
        if (line.table === undefined || line.rows === undefined) continue;
        announced[line.table] = line.rows;
        i += line.rows;
      }
      const target = new pg.Client({ connectionString: databaseUrl });
      await target.connect();
      expect(await counts(target)).toEqual(announced);
      expect(announced['public.webhook_deliveries']).toBeGreaterThan(0);
      expect(announced['public.refresh_tokens']).toBeGreaterThan(0);
      expect(announced['public.auth_sessions']).toBeGreaterThan(0);
      expect(announced['public.door_keys']).toBeGreaterThan(0);
      await target.end();

      // A server on PostgreSQL with the DATA_DIR's files but its database: everything answers as before.
      const movedDir = mkdtempSync(join(tmpdir(), 'tp-moved-'));
      cpSync(before.dataDir, movedDir, {
        recursive: true,
        filter: (src) => !src.startsWith(join(before.dataDir, 'pglite')),
      });
      expect(existsSync(join(movedDir, 'pglite'))).toBe(false);
      const after = await startServerProcess({ ...env, DATABASE_URL: databaseUrl, SEED_DEMO: 'false' }, movedDir);
      servers.push(after);
      const refreshed = await fetch(`${after.url}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: holder.refreshToken }),
      });
      expect(refreshed.status).toBe(200);
      const { accessToken } = (await refreshed.json()) as { accessToken: string };
      expect(await listing(after.url, accessToken)).toEqual(ticketsBefore);
      const me = (await (await fetch(`${after.url}/v1/auth/me`, { headers: bearer(accessToken) })).json()) as {
        picture: string;
      };
      expect(me.picture).toBe(picture);
      expect((await fetch(`${after.url}${picture}`)).status).toBe(200);
      const doorKeys = (await (await fetch(`${after.url}/v1/org/door-keys`, { headers: bearer(orgKey) })).json()) as {
        id: number;
      }[];
      expect(doorKeys.map((k) => k.id)).toContain(doorKey.id);
      const doorEvents = await fetch(`${after.url}/v1/access/events`, {
        headers: { 'x-scanner-key': doorKey.key, 'x-door-device': 'dbmove-test-device' },
      });
      expect(doorEvents.status).toBe(200);
      // Sequences continue past the imported rows: a new holder and a new ticket get new ids.
      await signInOver(after.url, 'newcomer@example.com');
      const next = await put(after.url, 'tickets/MOVE-2', {
        ticketTypeExternalId: types[0].externalId,
        holderEmail: 'newcomer@example.com',
      });
      expect(next.status, await next.clone().text()).toBe(201);

      // Issue 39, item 12: with that instance serving the database, an import is refused, --force or not.
      const live = await transfer(['import', '--in', out, '--force'], { DATABASE_URL: databaseUrl }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      // Refused by the instance lock the server holds (before its pooled connections are even looked at).
      expect(live).toMatchObject({ code: 1, stderr: expect.stringContaining('instance lock') as string });
    },
  );
});

/*
 * Issue 39, item 12: `db:import` refuses a database another process is connected to (an instance serving it would go
 * on with the replaced data), `--force` alone no longer overrides, `--force --yes-i-stopped-every-instance` does; the
 * export is created owner-only (0600) whatever the umask, since it holds webhook secrets in clear.
 */
/** An embedded database made in `dir` (DATA_DIR) and exported to `out` with the process's umask set to `umask`. */
async function exportOf(dir: string, out: string, umask = '022') {
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create({ dataDir: join(dir, 'pglite') });
  await db.close();
  return run(
    'sh',
    ['-c', `umask ${umask} && exec "$0" "$1" export --out "$2"`, process.execPath, bundledEntry('db-transfer.js'), out],
    { cwd: repoRoot, env: { PATH: process.env.PATH, DATA_DIR: dir } },
  );
}

/**
 * The export of an empty embedded database (migrated by the export), made once per file for the import tests that
 * need only a valid file to load: each export is an empty PGlite made and then migrated by `db-transfer.ts` (then
 * through tsx), about 8 CPU seconds (decision 028 section 12). The owner-only test makes its own, with its own umask.
 */
let emptyExport: Promise<string> | undefined;
function anEmptyExport(): Promise<string> {
  emptyExport ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-import-file-'));
    temp.push(dir);
    const out = join(dir, 'export.jsonl');
    await exportOf(join(dir, 'data'), out);
    return out;
  })();
  return emptyExport;
}

describe('db:export writes an owner-only file', () => {
  it('creates the export 0600 with umask 000, over a world-readable leftover', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-export-mode-'));
    temp.push(dir);
    const out = join(dir, 'export.jsonl');
    // Leftovers of an earlier run, readable by everyone: neither's mode survives.
    writeFileSync(out, 'old', { mode: 0o666 });
    writeFileSync(`${out}.partial`, 'old', { mode: 0o666 });
    chmodSync(out, 0o666);
    chmodSync(`${out}.partial`, 0o666);
    const done = await exportOf(join(dir, 'data'), out, '000');
    expect(done.stdout).toMatch(/exported \d+ rows/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

describe.runIf(onPostgres())('db:import refuses a database in use', () => {
  it(
    'refuses while another connection is open, --force alone too; --force --yes-i-stopped-every-instance imports',
    { timeout: 300_000 }, // five `db:` processes, each a tsx start: 26 s alone, over 120 s in a loaded CI
    async () => {
      const out = await anEmptyExport();
      const databaseUrl = await freshPostgresUrl({ empty: true });
      const other = new pg.Client({ connectionString: databaseUrl, application_name: 'an-instance' });
      await other.connect();
      const fail = (e: { code: number; stderr: string }) => e;
      try {
        const refused = await transfer(['import', '--in', out], { DATABASE_URL: databaseUrl }).catch(fail);
        expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('an-instance') as string });
        expect((refused as { stderr: string }).stderr).toContain('--yes-i-stopped-every-instance');
        const forced = await transfer(['import', '--in', out, '--force'], { DATABASE_URL: databaseUrl }).catch(fail);
        expect(forced).toMatchObject({ code: 1, stderr: expect.stringContaining('other connection') as string });
        // Nothing was written.
        expect((await other.query('select count(*)::int as n from users')).rows[0]).toEqual({ n: 0 });
        // The confirmation alone is a usage error.
        const alone = await transfer(['import', '--in', out, '--yes-i-stopped-every-instance'], {
          DATABASE_URL: databaseUrl,
        }).catch(fail);
        expect(alone).toMatchObject({ code: 2 });
        const both = await transfer(['import', '--in', out, '--force', '--yes-i-stopped-every-instance'], {
          DATABASE_URL: databaseUrl,
        });
        expect(both.stdout).toMatch(/imported \d+ rows/);
      } finally {
        await other.end();
      }
      // Alone on the database again: --force replaces, as before.
      const again = await transfer(['import', '--in', out, '--force'], { DATABASE_URL: databaseUrl });
      expect(again.stdout).toMatch(/imported \d+ rows/);
    },
  );
});

describe.runIf(onPostgres())('db:import never runs under a running instance', () => {
  it(
    'refuses, --force --yes-i-stopped-every-instance too, while an instance holds the instance lock (re-audit: an idle instance held no pooled connection)',
    { timeout: 300_000 }, // five `db:` processes, each a tsx start: 26 s alone, over 120 s in a loaded CI
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tp-import-instance-'));
      temp.push(dir);
      const out = await anEmptyExport();
      const databaseUrl = await freshPostgresUrl({ empty: true });
      // An instance on this database whose pool went idle: only its instance lock is left.
      const app = await createTestApp({
        database: await openDatabase({ databaseUrl, dataDir: dir }),
        config: { databaseUrl },
      });
      const fail = (e: { code: number; stderr: string }) => e;
      try {
        await vi.waitFor(async () => {
          const probe = new pg.Client({ connectionString: databaseUrl });
          await probe.connect();
          const { rows: held } = await probe.query(
            `select count(*)::int as n from pg_locks
              where locktype = 'advisory' and objid = $1 and mode = 'ShareLock'
                and database = (select oid from pg_database where datname = current_database())`,
            [INSTANCE_LOCK_KEY],
          );
          await probe.end();
          expect(held[0]).toEqual({ n: 1 });
        });
        const both = await transfer(['import', '--in', out, '--force', '--yes-i-stopped-every-instance'], {
          DATABASE_URL: databaseUrl,
        }).catch(fail);
        expect(both).toMatchObject({ code: 1, stderr: expect.stringContaining('instance lock') as string });
      } finally {
        await app.close();
        await app.database.close();
      }
      // The instance stopped: its lock is gone and the import runs.
      const after = await transfer(['import', '--in', out, '--force'], { DATABASE_URL: databaseUrl });
      expect(after.stdout).toMatch(/imported \d+ rows/);
    },
  );
});

describe.runIf(onPostgres())('db:import sees instances of another role', () => {
  it('counts a connection of another role, whose backend_type a non-superuser reads as NULL', async () => {
    const databaseUrl = await freshPostgresUrl({ empty: true });
    const suffix = randomBytes(4).toString('hex');
    const [instanceRole, importerRole] = [`tp_instance_${suffix}`, `tp_importer_${suffix}`];
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create role ${instanceRole} login; create role ${importerRole} login`);
      const as = (role: string) => {
        const url = new URL(databaseUrl);
        url.username = role;
        return url.toString();
      };
      const instance = new pg.Client({ connectionString: as(instanceRole), application_name: 'an-instance' });
      await instance.connect();
      const pid = (await instance.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
      const importer = new pg.Client({ connectionString: as(importerRole) });
      await importer.connect();
      try {
        // What the importer's role reads of the instance's session: no backend_type (the audit's miss).
        const seen = await importer.query<{ backend_type: string | null }>(
          `select backend_type from pg_stat_activity where pid = ${pid}`,
        );
        expect(seen.rows).toEqual([{ backend_type: null }]);
        const found = await otherConnections(drizzle(importer));
        expect(found.map((c) => c.pid)).toContain(pid);
      } finally {
        await importer.end();
        await instance.end();
      }
      // Roles belong to the server, not to the test's database: both go, and a failed drop fails the test (after
      // the checks above, so that it never hides their outcome).
      await admin.query(`drop role ${instanceRole}; drop role ${importerRole}`);
    } finally {
      await admin.end();
    }
  });
});
