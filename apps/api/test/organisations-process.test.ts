/**
 * The organiser API as the README starts it (issue 12): the real server seeds the demo organisation, writes its API
 * key to DATA_DIR/demo-org-api-key and generates ADMIN_KEY into DATA_DIR/admin-key when unset; both keys work.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
}, 90_000);
afterAll(async () => {
  await server?.dispose();
});

const call = (path: string, key: string, method: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('organiser keys on a started server', () => {
  it('the demo organisation key and the generated admin key are in DATA_DIR and work', async () => {
    const demoKey = readFileSync(join(server.dataDir, 'demo-org-api-key'), 'utf8').trim();
    const adminKey = readFileSync(join(server.dataDir, 'admin-key'), 'utf8').trim();
    const ev = await call('/v1/org/events/readme-1', demoKey, 'PUT', {
      name: 'Readme Live',
      venue: 'Hall',
      city: 'Auckland',
      country: 'NZ',
      startsAt: '2030-01-01T18:00:00+13:00',
      endsAt: '2030-01-01T23:00:00+13:00',
      timeZone: 'Pacific/Auckland',
    });
    expect(ev.status).toBe(201);
    const org = await call('/v1/admin/organisations', adminKey, 'POST', { slug: 'readme-org', name: 'Readme Org' });
    expect(org.status).toBe(201);
    expect(server.output()).toContain('demo-org-api-key');
  });
});
