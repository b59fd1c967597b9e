/**
 * The embedded database's memory settings (decision 041, issue 44): PostgreSQL inside PGlite runs with the
 * `shared_buffers` the server passes (PGLITE_SHARED_BUFFERS_MB, default 16 MiB instead of PGlite's 128 MiB), read back
 * with `SHOW` through the app's database, and a new data directory keeps them when its thread is started again
 * after initdb and the migrations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PGLITE_MEMORY_DEFAULTS } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { createTestApp, onPostgres, rawQuery } from './helper.js';

async function show(database: Database, name: string): Promise<string> {
  const { rows } = await rawQuery<Record<string, string>>(database.db, `show ${name}`);
  return rows[0][name];
}

describe.skipIf(onPostgres())('the embedded database memory (decision 041)', () => {
  it('runs the app on 16 MiB of shared buffers by default, and 512 kB of WAL buffers with them', async () => {
    const t = await createTestApp();
    try {
      expect(await show(t.database, 'shared_buffers')).toBe('16MB');
      expect(await show(t.database, 'wal_buffers')).toBe('512kB');
      expect(PGLITE_MEMORY_DEFAULTS.sharedBuffersMb).toBe(16);
    } finally {
      await t.close();
    }
  });

  it('takes the configured shared buffers on a new data directory, and again when it is opened next', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tp-pglite-memory-'));
    const pgliteMemory = { sharedBuffersMb: 24, youngGenerationMb: 8 };
    try {
      let database = await openDatabase({ databaseUrl: null, dataDir, pgliteMemory });
      try {
        // Migrated (the thread started again after them) and on the configured buffers.
        expect((await rawQuery<{ n: number }>(database.db, 'select count(*)::int as n from users')).rows[0].n).toBe(0);
        expect(await show(database, 'shared_buffers')).toBe('24MB');
      } finally {
        await database.close();
      }
      database = await openDatabase({
        databaseUrl: null,
        dataDir,
        pgliteMemory: { ...pgliteMemory, sharedBuffersMb: 8 },
      });
      try {
        expect(await show(database, 'shared_buffers')).toBe('8MB');
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
