/**
 * Writes the API document (`GET /v1/openapi.json`) to a file without starting a server: builds the app on an
 * empty in-memory PGlite (no migrations, no listening) and asks it for the document.
 * Usage: `tsx --conditions=source apps/api/scripts/openapi.ts <out.json>` (npm run api:openapi).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { fromPglite } from '../src/db/client.js';

const out = process.argv[2];
if (!out) throw new Error('usage: openapi.ts <out.json>');
const dataDir = mkdtempSync(join(tmpdir(), 'tp-openapi-'));
const database = fromPglite(await PGlite.create());
const app = await buildApp({
  config: loadConfig({}, { dataDir }),
  database,
});
await app.ready();
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
