/**
 * Upgrades keep data (issue 25): the database of an earlier release, filled with data written against its schema,
 * migrated to today by the real migrator, still answers.
 *
 * Each file `fixtures/upgrade/after-NNNN.sql` is SQL against the schema as it was after migration NNNN (one
 * statement per line). The test applies migrations 0000..NNNN, runs the file, goes on to the next file's point
 * and so on, then applies every later migration: each migration written after a fixture runs over its data. No
 * table may lose or gain rows in those migrations unless `ROW_CHANGES` below says why. Then a holder of the
 * fixture signs in through the real endpoints and reads the tickets the fixture gave them. Both databases.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migrationsFolder, openDatabase, type Database } from '../src/db/client.js';
import { appliedMigrations } from '../src/db/transfer.js';
import { createTestApp, freshPostgresUrl, onPostgres, rawQuery } from './helper.js';

/**
 * Tables whose row count a later migration changes on purpose (a migration that moves or derives rows): table →
 * the reason. Empty: every migration so far keeps every row.
 */
const ROW_CHANGES: Record<string, string> = {};

const fixturesDir = resolve(import.meta.dirname, 'fixtures/upgrade');
/** The fixtures in order, with the number of migrations applied before each (after-0013 → 14). */
const fixtures = readdirSync(fixturesDir)
  .filter((f) => /^after-\d{4}\.sql$/.test(f))
  .sort()
  .map((file) => ({ file, migrations: Number(file.slice(6, 10)) + 1 }));
const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};

const temp: string[] = [];
let database: Database | null = null;
afterAll(async () => {
  await database?.close();
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the migrations folder whose journal lists only the first `count` migrations. */
function firstMigrations(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tp-migrations-'));
  temp.push(dir);
  cpSync(migrationsFolder, dir, { recursive: true });
  writeFileSync(
    join(dir, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }),
  );
  return dir;
}

const tableCounts = async (db: Database['db']): Promise<Record<string, number>> => {
  const { rows } = await rawQuery<{ t: string }>(
    db,
    `select schemaname || '.' || tablename as t from pg_tables where schemaname = 'public' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { t } of rows)
    counts[t] = (await rawQuery<{ n: number }>(db, `select count(*)::int as n from ${t}`)).rows[0].n;
  return counts;
};

describe('upgrades keep data', () => {
  it(
    'every migration after a fixture runs over its data, and its holders still sign in and see their tickets',
    { timeout: 180_000 },
    async () => {
      expect(fixtures.length).toBeGreaterThan(0);
      expect(fixtures.at(-1)!.migrations).toBeLessThanOrEqual(journal.entries.length);
      const dataDir = mkdtempSync(join(tmpdir(), 'tp-upgrade-'));
      temp.push(dataDir);
      const kind = onPostgres() ? 'pg' : 'pglite';
      database = await openDatabase({
        databaseUrl: onPostgres() ? await freshPostgresUrl({ empty: true }) : null,
        dataDir,
        migrationsFolder: firstMigrations(fixtures[0].migrations),
      });
      const db = database.db;

      for (const fixture of fixtures) {
        await migrate(database, kind, firstMigrations(fixture.migrations));
        expect(await appliedMigrations(db)).toBe(fixture.migrations);
        const statements = readFileSync(join(fixturesDir, fixture.file), 'utf8')
          .split('\n')
          .filter((line) => line.trim() && !line.startsWith('--'));
        for (const statement of statements) await db.execute(statement);
      }
      const before = await tableCounts(db);

      await migrate(database, kind);
      expect(await appliedMigrations(db)).toBe(journal.entries.length);
      const after = await tableCounts(db);
      for (const [table, n] of Object.entries(before))
        if (!ROW_CHANGES[table]) expect(after[table], `${table} after the later migrations`).toBe(n);
      expect(before['public.users']).toBeGreaterThan(0);
      expect(before['public.user_tickets']).toBeGreaterThan(0);
      // 0018 (issue 39): each audit entry of after-0017 got its actor's label (none for the platform admin).
      const labels = await rawQuery<{ id: number; actor_label: string | null }>(
        db,
        'select id, actor_label from audit_log order by id',
      );
      expect(labels.rows.map((r) => r.actor_label)).toEqual([null, 'tpk_6faLkmZo', 'alice@example.com']);

      // The app of today on the upgraded database, its clock at the fixture's time (events upcoming then).
      const t = await createTestApp({ database, start: new Date('2026-11-27T13:00:00Z') });
      try {
        const ticketsOf = async (email: string) => {
          const { accessToken } = await t.signIn(email);
          const r = await t.app.inject({
            url: '/v1/list/ticket_listing?status=UPCOMING',
            headers: { authorization: `Bearer ${accessToken}` },
          });
          expect(r.statusCode, r.body).toBe(200);
          return r.json<{ userTicketId: number }[]>().map((x) => x.userTicketId);
        };
        const held = async (email: string) =>
          (
            await rawQuery<{ id: number }>(
              db,
              `select t.id from user_tickets t join users u on u.id = t.holder_id where u.email = '${email}' order by t.id`,
            )
          ).rows.map((r) => Number(r.id));
        const alice = await ticketsOf('alice@example.com');
        expect(alice.length).toBeGreaterThan(0);
        expect((await held('alice@example.com')).filter((id) => alice.includes(id))).toEqual(
          [...alice].sort((a, b) => a - b),
        );
        // The ticket Alice gave Bob in the fixture is Bob's.
        const gifted = await rawQuery<{ id: number }>(
          db,
          `select h.user_ticket_id as id from ticket_history h join users u on u.id = h.to_user_id where u.email = 'bob@example.com'`,
        );
        expect(gifted.rows.length).toBeGreaterThan(0);
        const bob = await ticketsOf('bob@example.com');
        expect(bob).toEqual(expect.arrayContaining(gifted.rows.map((r) => Number(r.id))));
        expect(await held('bob@example.com')).toEqual(expect.arrayContaining(bob));
      } finally {
        await t.close();
      }
    },
  );
});
