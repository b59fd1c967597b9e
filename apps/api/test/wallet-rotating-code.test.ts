/**
 * Google Wallet's rotating barcode at the door (issue 39, item 13; decision 029), in wallet test mode: the code
 * inside a Google pass is a rotating ticket code (kind 4), so the code with its rotating suffix stripped is refused
 * at the online door and on sync; an offline sync of a code whose TOTP timestamp is far from its scan time (a
 * 10-minute-old screenshot) is `invalid_pass`, while a fresh one is admitted.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walletTotp } from '@tp/contract/wallet-totp';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const KEY = 'door-key-for-tests';
type Row = Record<string, unknown>;
let t: TestApp;
let laneway: number;
let vip: number;
/** The Google object's barcode pattern and TOTP secret. */
let pattern: string;
let secret: string;

const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
beforeEach(async () => {
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-wallet-')) },
  ).wallet;
  t = await createTestApp({ seed: true, config: { scannerKey: KEY, wallet } });
  const alice = (await t.signIn('alice@example.com')).accessToken;
  await rows(
    `update events set pass_reveal_at = '${new Date(t.clock.now().getTime() - 3_600_000).toISOString()}' where name = 'Laneway Sessions'`,
  );
  laneway = Number((await rows(`select id from events where name = 'Laneway Sessions'`))[0].id);
  vip = Number(
    (
      await rows(
        `select ut.id from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id join users u on u.id = ut.holder_id
         where u.email = 'alice@example.com' and e.id = ${laneway} and tt.name = 'VIP'`,
      )
    )[0].id,
  );
  const save = await t.app.inject({ url: `/v1/tickets/${vip}/wallet/google`, headers: bearer(alice) });
  expect(save.statusCode, save.body).toBe(200);
  const fake = t.app.services.googleWallet as unknown as { objects: Map<string, Row> };
  const [object] = [...fake.objects.values()] as {
    rotatingBarcode: { valuePattern: string; totpDetails: { parameters: { key: string }[] } };
  }[];
  pattern = object.rotatingBarcode.valuePattern;
  secret = object.rotatingBarcode.totpDetails.parameters[0].key;
});
afterEach(async () => {
  await t.close();
});

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
/** What the phone shows at `at` (unix seconds). */
const shown = async (at: number) =>
  pattern.replace('{totp_timestamp_seconds}', String(at)).replace('{totp_value_0}', await walletTotp(secret, at));
/** The code of the Google pass with its rotating suffix stripped. */
const stripped = () => pattern.split('.').slice(0, 2).join('.');
const scan = (code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': KEY },
    payload: { code, eventId: laneway },
  });
const sync = (items: { code: string; scannedAt: Date }[]) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/sync',
    headers: { 'x-scanner-key': KEY },
    payload: {
      eventId: laneway,
      items: items.map((i) => ({
        id: randomUUID(),
        code: i.code,
        scannedAt: i.scannedAt.toISOString(),
        userTicketIds: [vip],
      })),
    },
  });
type SyncBody = { results: { admitted: number[]; conflicts: { userTicketId: number; reason: string }[] }[] };

describe("a Google pass's code with its rotating suffix stripped", () => {
  it('is refused at the online door (before: admitted as an Apple pass would be)', async () => {
    expect(stripped()).toMatch(/^TP2\.[A-Za-z0-9_-]+$/);
    const bare = await scan(stripped());
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json()).toEqual({ message: 'api.access.invalid_code' });
    // The same pass shown as the phone shows it is admitted (the refused scan did not use the ticket).
    const live = await scan(await shown(seconds(t.clock.now()) - 5));
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json<{ admitted: { userTicketId: number }[] }>().admitted.map((a) => a.userTicketId)).toEqual([vip]);
  });

  it('is refused on sync of an offline admission (invalid_pass)', async () => {
    const r = await sync([{ code: stripped(), scannedAt: new Date(t.clock.now().getTime() - 60_000) }]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<SyncBody>().results[0]).toEqual({
      id: expect.any(String) as string,
      admitted: [],
      conflicts: [{ userTicketId: vip, reason: 'invalid_pass' }],
    });
  });
});

describe('an offline sync of a rotating code', () => {
  it('refuses a code whose TOTP timestamp is 10 minutes before its scan, and admits a fresh one', async () => {
    const scannedAt = new Date(t.clock.now().getTime() - 60_000);
    const old = await sync([{ code: await shown(seconds(scannedAt) - 600), scannedAt }]);
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json<SyncBody>().results[0]).toMatchObject({
      admitted: [],
      conflicts: [{ userTicketId: vip, reason: 'invalid_pass' }],
    });
    const fresh = await sync([{ code: await shown(seconds(scannedAt) - 10), scannedAt }]);
    expect(fresh.json<SyncBody>().results[0]).toMatchObject({ admitted: [vip], conflicts: [] });
  });
});
