import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer, stopBuiltServer } from './server.js';
import { signIn } from '../scripts/dev-sign-in.js';
const prof = '/tmp/pglprof';
rmSync(prof, { recursive: true, force: true });
const { child, base } = await startBuiltServer({ dataDir: mkdtempSync(join(tmpdir(), 'x-')), env: { OTP_RESEND_SECONDS: '0' }, nodeArgs: process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [] });
const auth = await signIn(base, 'alice@example.com');
for (const path of ['/v1/auth/me', '/v1/auth/me']) {
  const r = await autocannon({ url: base + path, connections: 10, duration: 6, headers: { authorization: auth } });
  console.log(path, Math.round(r.requests.average), 'req/s', r.non2xx);
}
await stopBuiltServer(child);
