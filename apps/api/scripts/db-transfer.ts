/**
 * Out of the embedded database (issue 25, decision 033):
 *
 * - `npm run db:export -- --out FILE` writes DATA_DIR's PGlite database (DATA_DIR/pglite; DATA_DIR defaults to
 *   apps/api/.data, where `npm start` keeps it) to FILE as JSON lines (src/db/transfer.ts). The server must be
 *   stopped: PGlite has no lock of its own between processes, so two processes on one data directory would
 *   corrupt it; while a process has it open, PGlite keeps `DATA_DIR/pglite/postmaster.pid`, and the export refuses
 *   to start when that file is there. Pending migrations are applied first, as the server's start would.
 * - `npm run db:import -- --in FILE [--force [--yes-i-stopped-every-instance]]` loads FILE into DATABASE_URL
 *   (PostgreSQL): the normal migrator first (under the same advisory lock as the server), then every row and
 *   sequence in one transaction. A target that holds rows is refused; `--force` empties every app table first, in
 *   that same transaction. A target another client is connected to (an instance serving it, a psql) is refused
 *   (issue 39, item 12), `--force` or not; only `--force` together with `--yes-i-stopped-every-instance` imports
 *   anyway (for connections that are known not to be instances, e.g. a monitoring agent).
 *
 * The export's file is created with mode 0600 (owner only; opened so, never chmod-ed after): it holds webhook
 * signing secrets and other credentials in clear (README "Outgrowing one machine"). Its `.partial` file too.
 *
 * Files beside the database in DATA_DIR (avatars under media/, jwt-secret, scanner-key, admin-key, wallet keys)
 * are not in FILE: copy them to the new DATA_DIR (README "Outgrowing one machine").
 * Exit codes: 0 done, 1 refused or failed (nothing written to the target), 2 usage.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { loadDatabaseConfig } from '../src/config.js';
import { fromPglite, migrate, openDatabase } from '../src/db/client.js';
import { exportData, IMPORT_CONFIRMATION_FLAG, importData } from '../src/db/transfer.js';

const USAGE = `usage: db-transfer.ts export --out FILE | import --in FILE [--force [--${IMPORT_CONFIRMATION_FLAG}]]`;
/** Paths on the command line are the caller's (npm runs scripts from the root; INIT_CWD is where it was typed). */
const callerPath = (p: string) => resolve(process.env.INIT_CWD ?? process.cwd(), p);
/** DATA_DIR as the server sees it under `npm start` (which runs in apps/api). */
const apiRoot = resolve(import.meta.dirname, '..');

async function runExport(out: string): Promise<void> {
  const { dataDir } = loadDatabaseConfig(process.env, join(apiRoot, '.data'));
  const dir = join(dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new Error(`no embedded database in ${dir} (set DATA_DIR)`);
  if (existsSync(join(dir, 'postmaster.pid')))
    throw new Error(
      `${join(dir, 'postmaster.pid')} exists: a server has this database open. Stop it (Ctrl-C or SIGTERM, then wait for it to exit) and run the export again. If no server runs (it was killed), start it once and stop it with Ctrl-C.`,
    );
  const database = fromPglite(await PGlite.create({ dataDir: dir }));
  const partial = `${out}.partial`;
  try {
    await migrate(database, 'pglite');
    // Owner-only from its creation (no window where others could open it, whatever the umask); `wx` after removing
    // a leftover, so the mode is this open's and never an older file's.
    rmSync(partial, { force: true });
    const file = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    const done = await exportData(database.db, async (line) => {
      if (!file.write(line)) await once(file, 'drain');
    });
    file.end();
    await once(file, 'finish');
    renameSync(partial, out);
    console.log(`exported ${done.rows} rows of ${done.tables} tables from ${dir} to ${out}`);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await database.close();
  }
}

async function runImport(input: string, force: boolean, confirmed: boolean): Promise<void> {
  const { databaseUrl } = loadDatabaseConfig();
  if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database to import into');
  if (!existsSync(input)) throw new Error(`${input} does not exist`);
  // One connection: the migrator's and the import's, so "other connections" are exactly the others.
  const database = await openDatabase({ databaseUrl, dataDir: '', databasePoolMax: 1 });
  try {
    const lines = createInterface({ input: createReadStream(input, 'utf8'), crlfDelay: Infinity });
    const done = await importData(database.db, lines, { force, allowOtherConnections: force && confirmed });
    console.log(`imported ${done.rows} rows of ${done.tables} tables from ${input}`);
  } finally {
    await database.close();
  }
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    in: { type: 'string' },
    force: { type: 'boolean', default: false },
    [IMPORT_CONFIRMATION_FLAG]: { type: 'boolean', default: false },
  },
});
const confirmed = values[IMPORT_CONFIRMATION_FLAG] === true;
try {
  if (positionals[0] === 'export' && values.out && !confirmed) await runExport(callerPath(values.out));
  else if (positionals[0] === 'import' && values.in && (values.force || !confirmed))
    await runImport(callerPath(values.in), values.force, confirmed);
  else {
    if (confirmed) console.error(`--${IMPORT_CONFIRMATION_FLAG} goes only with import --force`);
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (err) {
  // A refusal or a database error: its message (PostgreSQL's names the table and constraint); nothing was written.
  console.error(`db-transfer: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
