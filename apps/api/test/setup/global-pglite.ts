/** Vitest global setup (PGlite project): migrate once, dump the data dir for every test file to load. */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { fromPglite, migrate } from '../../src/db/client.js';

export default async function setup(project: TestProject) {
  const client = await PGlite.create();
  await migrate(fromPglite(client), 'pglite');
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), 'tp-pglite-'));
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('dbTemplate', `pglite:${file}`);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: string;
  }
}
