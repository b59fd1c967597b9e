/**
 * Vitest global setup (PGlite project): migrate once, dump the data dir for every test to load, and bundle the
 * database thread's module (src/db/pglite.worker.ts and what it imports from src/) once into JavaScript, so that each
 * test's database thread starts without tsx (about 0.2 s of each of the ~450 opens: tsx's start and its esbuild
 * process, in every thread). The server and its scripts for the tests that start processes: server-bundle.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { fromPglite, migrate } from '../../src/db/client.js';
import { bundleServer } from './server-bundle.js';

const apiRoot = resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  const client = await PGlite.create();
  await migrate(fromPglite(client), 'pglite');
  // The app never creates a database, so template0 and template1 (15 of the dump's 42 MB) are dropped: each test's
  // database then opens in ~0.25 s instead of ~0.4 s.
  for (const name of ['template0', 'template1'])
    for (const statement of [`alter database ${name} is_template false`, `drop database ${name}`])
      await client.query(statement);
  await client.query('checkpoint');
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), 'tp-pglite-'));
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('dbTemplate', `pglite:${file}`);
  // Under node_modules, so that the bundle's bare imports (@electric-sql/pglite) resolve as the source's do.
  const cache = join(apiRoot, '../../node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const workerDir = mkdtempSync(join(cache, 'tp-pglite-worker-'));
  const worker = join(workerDir, 'pglite.worker.mjs');
  await build({
    entryPoints: [join(apiRoot, 'src/db/pglite.worker.ts')],
    outfile: worker,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  project.provide('pgliteWorker', pathToFileURL(worker).href);
  const bundle = await bundleServer();
  project.provide('serverBundle', bundle.dir);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(workerDir, { recursive: true, force: true });
    bundle.remove();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: string;
    /** file: URL of the bundled database-thread module (PGlite project only). */
    pgliteWorker: string;
  }
}
