/**
 * N instances starting together on an empty PostgreSQL database (issue 11): migrations run under
 * `pg_advisory_lock` and the demo seed under `pg_advisory_xact_lock`, so all of them come up and the data is
 * seeded once. PostgreSQL project only (PGlite is one process per data directory).
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { seedDemo } from '../src/db/seed.js';
import { freshPostgresUrl, onPostgres } from './helper.js';

describe.skipIf(!onPostgres())('start-up of several instances on an empty database', () => {
  it('four instances migrate and seed together: all come up, one seeds', async () => {
    const url = await freshPostgresUrl({ empty: true });
    const databases = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url, dataDir: '' })),
    );
    try {
      const seeded = await Promise.all(databases.map((d) => seedDemo(d.db, new Date())));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const result = await databases[0].db.execute('select count(*)::int as n from organisations');
      expect((result as { rows: { n: number }[] }).rows[0].n).toBe(1);
    } finally {
      await Promise.all(databases.map((d) => d.close()));
    }
  });
});
