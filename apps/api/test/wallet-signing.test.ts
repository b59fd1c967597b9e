/**
 * Apple passes signed on the pass-signing threads (issue 39, break 5; modules/wallet/pass-signer.ts), both databases:
 * a burst beyond the signing queue is refused at once with `503 api.wallet.busy` and `Retry-After` while the passes
 * admitted are made and verify against the test CA (`openssl cms -verify`, as wallet.test.ts checks one pass); a pass
 * not made within its deadline is the same refusal; closing the app ends the threads.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type PassSigningConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

let t: TestApp | undefined;
let work: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

/** An app in wallet test mode with these signing settings; alice's VIP ticket of Laneway Sessions, revealed. */
async function walletApp(signing: PassSigningConfig) {
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-wallet-')) },
  ).wallet;
  t = await createTestApp({ seed: true, config: { wallet: { ...wallet, signing } } });
  const app = t;
  const alice = (await app.signIn('alice@example.com')).accessToken;
  await rawQuery(
    app.database.db,
    `update events set pass_reveal_at = '${new Date(app.clock.now().getTime() - 60_000).toISOString()}' where name = 'Laneway Sessions'`,
  );
  const vip = Number(
    (
      await rawQuery<{ id: number }>(
        app.database.db,
        `select ut.id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id
         join users u on u.id = ut.holder_id where u.email = 'alice@example.com' and e.name = 'Laneway Sessions' and tt.name = 'VIP'`,
      )
    ).rows[0].id,
  );
  const download = () => app.app.inject({ url: `/v1/tickets/${vip}/wallet/apple`, headers: bearer(alice) });
  return { app, download };
}

/** Verifies a .pkpass's detached signature of its manifest against the served test CA (throws when it does not). */
async function verifyPass(app: TestApp, pkpass: Buffer) {
  work ??= mkdtempSync(join(tmpdir(), 'tp-pkpass-'));
  const dir = mkdtempSync(join(work, 'pass-'));
  writeFileSync(join(dir, 'p.pkpass'), pkpass);
  execFileSync('unzip', ['-q', '-o', join(dir, 'p.pkpass'), '-d', dir]);
  writeFileSync(join(dir, 'ca.pem'), (await app.app.inject({ url: '/v1/wallet/test-ca.pem' })).body);
  execFileSync(
    'openssl',
    [
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      join(dir, 'signature'),
      '-content',
      join(dir, 'manifest.json'),
    ].concat(['-CAfile', join(dir, 'ca.pem'), '-purpose', 'any', '-out', '/dev/null']),
    { stdio: 'pipe' },
  );
}

describe('Apple pass signing threads', () => {
  it('a burst beyond the queue is refused with 503 api.wallet.busy and Retry-After; the passes made verify', async () => {
    // One thread, one pass waiting: of 8 at once, 2 are admitted and the others refused before any work (a pass done
    // before the last requests arrive may let one more in).
    const { app, download } = await walletApp({ threads: 1, queue: 1, deadlineMs: 20_000 });
    const answers = await Promise.all(Array.from({ length: 8 }, download));
    const made = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode !== 200);
    expect(made.length, answers.map((r) => `${r.statusCode} ${r.body.slice(0, 60)}`).join('\n')).toBeGreaterThanOrEqual(
      2,
    );
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const r of refused) {
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ message: 'api.wallet.busy' });
      expect(r.headers['retry-after']).toBe('2');
    }
    for (const r of made) {
      expect(r.headers['content-type']).toBe('application/vnd.apple.pkpass');
      await verifyPass(app, r.rawPayload);
    }
    // Nothing of the burst is left behind: the next pass is made.
    const next = await download();
    expect(next.statusCode).toBe(200);
    expect(app.app.services.wallet.signingStats()).toEqual({ busy: 0, queued: 0 });
  });

  it('a pass not made within its deadline is 503 api.wallet.busy; closing the app ends the threads', async () => {
    const { app, download } = await walletApp({ threads: 1, queue: 4, deadlineMs: 1 });
    const r = await download();
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ message: 'api.wallet.busy' });
    expect(app.app.services.wallet.signingStats()).toEqual({ busy: 0, queued: 0 });
  });
});
