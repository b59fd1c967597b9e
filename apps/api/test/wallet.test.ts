/**
 * Wallet passes (issue 22, decision 029), in wallet test mode: the Apple `.pkpass` is checked with tools that
 * did not make it (unzip, SHA-1 of each file against manifest.json, `openssl cms -verify` of the detached
 * signature against the test CA served at GET /v1/wallet/test-ca.pem), its pass.json fields, and its barcode
 * admitted by the door's check-in until the ticket is gifted away.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walletTotp } from '@tp/contract/wallet-totp';
import { loadConfig } from '../src/config.js';
import { bearer, createTestApp, rawQuery, type TestApp } from './helper.js';

const KEY = 'door-key-for-tests';
const METRICS_TOKEN = 'wallet-test-metrics-token';
let t: TestApp;
let alice: string;
let work: string;
beforeEach(async () => {
  // A minute per pass, not the default 10 s: these tests are about the pass's content, and in CI the first pass's
  // signing thread starts while two cores also run Chromium and the other suites (a pass once answered 503
  // api.wallet.busy after 21 s). The deadline itself is wallet-signing.test.ts's, with its own settings.
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true', WALLET_SIGNING_DEADLINE_SECONDS: '60' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-wallet-')) },
  ).wallet;
  t = await createTestApp({ seed: true, config: { scannerKey: KEY, wallet, metricsToken: METRICS_TOKEN } });
  alice = (await t.signIn('alice@example.com')).accessToken;
  await t.signIn('bob@example.com');
  work = mkdtempSync(join(tmpdir(), 'tp-pkpass-'));
});
afterEach(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const rows = async (sql: string) => (await rawQuery<Row>(t.database.db, sql)).rows;
const eventId = async (name: string) => Number((await rows(`select id from events where name = '${name}'`))[0].id);
const heldIds = async (email: string, event: string) =>
  Object.fromEntries(
    (
      await rows(
        `select ut.id, tt.name from user_tickets ut join ticket_types tt on tt.id = ut.ticket_type_id join events e on e.id = tt.event_id join users u on u.id = ut.holder_id
   where u.email = '${email}' and e.name = '${event}' order by ut.id`,
      )
    ).map((r) => [r.name as string, Number(r.id)]),
  );
/** A live door key of organisation `organisationId`, written as POST /v1/org/door-keys writes it (SHA-256 hex). */
async function doorKey(organisationId: number): Promise<string> {
  const prefix = `tpd_${randomBytes(6).toString('base64url')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const hash = createHash('sha256').update(key).digest('hex');
  await rows(
    `insert into door_keys (organisation_id, name, prefix, key_hash) values (${organisationId}, 'Gate', '${prefix}', '${hash}')`,
  );
  return key;
}
const revealAt = (event: string, at: Date) =>
  rows(`update events set pass_reveal_at = '${at.toISOString()}' where name = '${event}'`);
const applePass = (userTicketId: number, token = alice) =>
  t.app.inject({ url: `/v1/tickets/${userTicketId}/wallet/apple`, headers: bearer(token) });
const scan = (code: string, event: number) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/access/check-in',
    headers: { 'x-scanner-key': KEY },
    payload: { code, eventId: event },
  });

/** Unzips a .pkpass into a fresh folder of `work` and returns the folder. */
function unzip(pkpass: Buffer): string {
  const dir = mkdtempSync(join(work, 'pass-'));
  writeFileSync(join(dir, '..', 'p.pkpass'), pkpass);
  execFileSync('unzip', ['-q', '-o', join(dir, '..', 'p.pkpass'), '-d', dir]);
  return dir;
}

/** Every file under `dir`, as relative paths (`es.lproj/pass.strings`), sorted. */
const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

describe('Apple Wallet pass', () => {
  it("labels the pass in the holder's language and carries en.lproj and es.lproj strings for every label (issue 40)", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    type Field = { key: string; label: string; value: string };
    type Fields = Record<'primaryFields' | 'secondaryFields' | 'auxiliaryFields' | 'backFields', Field[]>;
    const download = async () => {
      const r = await applePass(vip);
      expect(r.statusCode, r.body).toBe(200);
      const dir = unzip(r.rawPayload);
      const pass = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8')) as { eventTicket: Fields };
      const labels = Object.values(pass.eventTicket)
        .flat()
        .map((f) => f.label);
      const strings = (lang: string) =>
        Object.fromEntries(
          [...readFileSync(join(dir, `${lang}.lproj`, 'pass.strings'), 'utf8').matchAll(/"([^"]*)" = "([^"]*)";/g)].map(
            (m) => [m[1], m[2]],
          ),
        );
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
      expect(Object.keys(manifest)).toEqual(expect.arrayContaining(['en.lproj/pass.strings', 'es.lproj/pass.strings']));
      return { labels, en: strings('en'), es: strings('es') };
    };
    const english = ['EVENT', 'TICKET', 'HOLDER', 'STARTS', 'VENUE', 'ADDRESS'];
    const spanish = ['EVENTO', 'ENTRADA', 'TITULAR', 'EMPIEZA', 'LUGAR', 'DIRECCIÓN'];

    // The strings also carry the status a pass shows while its ticket is returned to the exchange queue (issue 45)
    // or once its event is cancelled (issue 46).
    const englishWords = [
      ...english,
      'STATUS',
      'Returned to the exchange queue: does not admit',
      'Event cancelled: does not admit',
      'DAYS AND ZONES',
    ];
    const spanishWords = [
      ...spanish,
      'ESTADO',
      'Devuelta a la cola de intercambio: no da acceso',
      'Evento cancelado: no da acceso',
      'DÍAS Y ZONAS',
    ];

    const en = await download();
    expect(en.labels).toEqual(english);
    expect(en.es).toEqual(Object.fromEntries(englishWords.map((k, i) => [k, spanishWords[i]])));
    expect(en.en).toEqual(Object.fromEntries(englishWords.map((k) => [k, k])));

    await rows(`update users set locale = 'es' where email = 'alice@example.com'`);
    const es = await download();
    expect(es.labels).toEqual(spanish);
    expect(es.es).toEqual(Object.fromEntries(spanishWords.map((k) => [k, k])));
    expect(es.en).toEqual(Object.fromEntries(spanishWords.map((k, i) => [k, englishWords[i]])));
  });

  it("names the days and zones of a type with entry rules, in the holder's language (issue 48)", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const rules = { days: ['2027-07-10', '2027-07-11'], entries: 'reentry', zones: ['VIP', 'Backstage'] };
    await rows(
      `update ticket_types set entry_rules = '${JSON.stringify(rules)}' where id = (select ticket_type_id from user_tickets where id = ${vip})`,
    );
    const admits = async () => {
      const r = await applePass(vip);
      expect(r.statusCode, r.body).toBe(200);
      const pass = JSON.parse(readFileSync(join(unzip(r.rawPayload), 'pass.json'), 'utf8')) as {
        eventTicket: { auxiliaryFields: { key: string }[] };
      };
      return pass.eventTicket.auxiliaryFields.find((f) => f.key === 'admits');
    };
    expect(await admits()).toEqual({ key: 'admits', label: 'DAYS AND ZONES', value: 'Sat 10–Sun 11 · VIP, Backstage' });
    await rows(`update users set locale = 'es' where email = 'alice@example.com'`);
    expect(await admits()).toEqual({ key: 'admits', label: 'DÍAS Y ZONAS', value: 'sáb 10–dom 11 · VIP, Backstage' });
  });

  it('is a .pkpass whose manifest hashes every file and whose signature verifies against the served test CA', async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const r = await applePass(vip);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const dir = unzip(r.rawPayload);

    const files = filesOf(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        'en.lproj/pass.strings',
        'es.lproj/pass.strings',
        'icon.png',
        'icon@2x.png',
        'manifest.json',
        'pass.json',
        'signature',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(files.filter((f) => f !== 'manifest.json' && f !== 'signature'));
    for (const [file, sha1] of Object.entries(manifest))
      expect(
        createHash('sha1')
          .update(readFileSync(join(dir, file)))
          .digest('hex'),
        file,
      ).toBe(sha1);

    const ca = await t.app.inject({ url: '/v1/wallet/test-ca.pem' });
    expect(ca.statusCode).toBe(200);
    expect(ca.body).toMatch(/^-----BEGIN CERTIFICATE-----/);
    writeFileSync(join(work, 'ca.pem'), ca.body);
    const verify = (content: string) =>
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
          content,
          '-CAfile',
          join(work, 'ca.pem'),
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ],
        { stdio: 'pipe' },
      );
    expect(() => verify(join(dir, 'manifest.json'))).not.toThrow();
    // The same check fails on a manifest changed by one byte (the check can fail).
    writeFileSync(join(work, 'tampered.json'), readFileSync(join(dir, 'manifest.json'), 'utf8').replace('{', '{ '));
    expect(() => verify(join(work, 'tampered.json'))).toThrow();

    const pass = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8')) as Record<string, unknown> & {
      eventTicket: { primaryFields: { value: string }[] };
      barcodes: { message: string; format: string }[];
      semantics: Record<string, unknown>;
    };
    const event = (await rows(`select starts_at, ends_at, venue from events where name = 'Laneway Sessions'`))[0] as {
      starts_at: Date | string;
      ends_at: Date | string;
      venue: string;
    };
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.test.ticketpanel',
      teamIdentifier: 'TESTTEAM00',
    });
    expect(pass.serialNumber).toMatch(new RegExp(`^ticket-${vip}-\\d+$`));
    expect(pass.webServiceURL).toMatch(/\/v1\/wallet\/apple\/$/);
    expect(pass.authenticationToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Date(pass.relevantDate as string).getTime()).toBe(new Date(event.starts_at).getTime());
    expect(new Date(pass.expirationDate as string).getTime()).toBe(new Date(event.ends_at).getTime());
    expect(pass.eventTicket.primaryFields[0].value).toBe('Laneway Sessions');
    expect(pass.semantics).toMatchObject({ eventName: 'Laneway Sessions', venueName: event.venue });
    expect(pass.barcodes[0].format).toBe('PKBarcodeFormatQR');
    expect(pass.barcodes[0].message).toMatch(/^TP2\./);
  });

  it("the door admits the barcode's code for that one ticket, and no longer once the ticket is gifted", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const laneway = await eventId('Laneway Sessions');
    const alices = await heldIds('alice@example.com', 'Laneway Sessions');
    const codeOf = async (id: number) => {
      const r = await applePass(id);
      expect(r.statusCode, r.body).toBe(200);
      const pass = JSON.parse(readFileSync(join(unzip(r.rawPayload), 'pass.json'), 'utf8')) as {
        barcodes: { message: string }[];
      };
      return pass.barcodes[0].message;
    };
    const gaCode = await codeOf(alices['General Admission']);
    const vipCode = await codeOf(alices['VIP']);

    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: alices['VIP'], username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);
    // The gifted ticket's old pass admits nothing; the kept ticket's pass admits that ticket only.
    const old = await scan(vipCode, laneway);
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json<{ admitted: unknown[] }>().admitted).toEqual([]);
    const kept = await scan(gaCode, laneway);
    expect(kept.json<{ admitted: { userTicketId: number }[] }>().admitted.map((x) => x.userTicketId)).toEqual([
      alices['General Admission'],
    ]);
    // A forged code (one signature byte changed) is refused outright.
    const forged = gaCode.slice(0, -2) + (gaCode.at(-2) === 'A' ? 'B' : 'A') + gaCode.slice(-1);
    expect(forged).not.toBe(gaCode);
    expect((await scan(forged, laneway)).statusCode).toBe(400);
  });

  it('is 409 with the reveal time before passRevealAt, and 404 for a ticket the caller does not hold', async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000);
    await revealAt('Laneway Sessions', at);
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const early = await applePass(vip);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'api.wallet.not_yet_available', revealAt: at.toISOString() });

    const bob = (await t.signIn('bob@example.com')).accessToken;
    const notHis = await applePass(vip, bob);
    expect(notHis.statusCode).toBe(404);
    expect(notHis.json()).toEqual({ message: 'api.ticket.not_found' });
  });
});

describe('Google Wallet pass', () => {
  const googleSave = (userTicketId: number, token = alice) =>
    t.app.inject({ url: `/v1/tickets/${userTicketId}/wallet/google`, headers: bearer(token) });
  const part = (jwt: string, i: number) => JSON.parse(Buffer.from(jwt.split('.')[i], 'base64url').toString()) as Row;

  it('answers a save link whose RS256 JWT verifies with the service account key and names the object the fake holds', async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const laneway = await eventId('Laneway Sessions');
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const r = await googleSave(vip);
    expect(r.statusCode, r.body).toBe(200);
    const { saveUrl } = r.json<{ saveUrl: string }>();
    expect(saveUrl.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const jwt = saveUrl.slice('https://pay.google.com/gp/v/save/'.length);

    // Verified with node:crypto and the public half of the service account's key, not with the code that signed it.
    const account = JSON.parse(readFileSync(t.config.wallet.google!.serviceAccountKeyPath, 'utf8')) as {
      client_email: string;
      private_key: string;
    };
    const [h, p, sig] = jwt.split('.');
    const publicKey = createPublicKey(account.private_key);
    expect(verify('sha256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${h}.${p}x`), publicKey, Buffer.from(sig, 'base64url'))).toBe(false);
    expect(part(jwt, 0)).toMatchObject({ alg: 'RS256' });
    const claims = part(jwt, 1) as { payload: { eventTicketObjects: { id: string }[] } } & Row;
    expect(claims).toMatchObject({ iss: account.client_email, aud: 'google', typ: 'savetowallet' });
    expect(claims.payload.eventTicketObjects).toHaveLength(1);
    const objectId = claims.payload.eventTicketObjects[0].id;

    const fake = t.app.services.googleWallet as unknown as { objects: Map<string, Row>; classes: Map<string, Row> };
    const object = fake.objects.get(objectId) as
      (Row & { classId: string; rotatingBarcode: { valuePattern: string; totpDetails: Row } }) | undefined;
    expect(object).toBeDefined();
    expect(object).toMatchObject({
      state: 'ACTIVE',
      ticketType: { defaultValue: { language: 'en', value: 'VIP' } },
    });
    expect(fake.classes.get(object!.classId)).toMatchObject({
      eventName: { defaultValue: { language: 'en', value: 'Laneway Sessions' } },
    });
    expect(object!.rotatingBarcode.totpDetails).toMatchObject({ algorithm: 'TOTP_SHA1', periodMillis: 30_000 });
    const pattern = object!.rotatingBarcode.valuePattern;
    expect(pattern).toMatch(/^TP2\.[A-Za-z0-9_-]+\.\{totp_timestamp_seconds\}\.\{totp_value_0\}$/);

    // What the phone shows, its TOTP filled in from the object's own secret: the door admits that ticket.
    const secret = (object!.rotatingBarcode.totpDetails as { parameters: { key: string }[] }).parameters[0].key;
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    const nowS = Math.floor(t.clock.now().getTime() / 1000);
    const shown = async (at: number, value?: string) =>
      pattern
        .replace('{totp_timestamp_seconds}', String(at))
        .replace('{totp_value_0}', value ?? (await walletTotp(secret, at)));
    // A screenshot (a value of 5 minutes ago) and a made-up value are refused as stale, with that reason.
    for (const stale of [await shown(nowS - 300), await shown(nowS, '12345678')]) {
      const r = await scan(stale, laneway);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toEqual({ message: 'api.access.stale_code' });
    }
    // Each refusal is in the check-in log, for the holder and the one ticket the code names.
    const [holder] = await rows(`select id from users where email = 'alice@example.com'`);
    expect(
      (await rows(`select verdict, holder_id, user_ticket_ids from check_in_log order by id`)).map((row) => [
        row.verdict,
        Number(row.holder_id),
        (row.user_ticket_ids as number[]).map(Number),
      ]),
    ).toEqual([
      ['invalid', Number(holder.id), [vip]],
      ['invalid', Number(holder.id), [vip]],
    ]);
    // Counted in tp_check_ins_total under their own reason (issue 41, point 8), beside the forged ones' `invalid`.
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.body).toMatch(/^tp_check_ins_total\{mode="online",result="refused",reason="stale_code"\} 2$/m);
    const admitted = await scan(await shown(nowS - 10), laneway);
    expect(admitted.statusCode, admitted.body).toBe(200);
    expect(admitted.json<{ admitted: { userTicketId: number }[] }>().admitted.map((x) => x.userTicketId)).toEqual([
      vip,
    ]);
  });

  it('a Google that times out or fails answers 503 with Retry-After, not 500; a later try gets the link (issue 39, fifteenth re-run)', async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const fake = t.app.services.googleWallet as unknown as { upsertObject: (r: unknown) => Promise<void> };
    const upsertObject = fake.upsertObject;
    fake.upsertObject = () =>
      Promise.reject(new Error('google wallet: PUT eventTicketObject timed out after 10000 ms'));
    try {
      const r = await googleSave(vip);
      expect(r.statusCode, r.body).toBe(503);
      expect(r.json()).toEqual({ message: 'api.service_unavailable' });
      expect(r.headers['retry-after']).toBe('30');
    } finally {
      fake.upsertObject = upsertObject;
    }
    const again = await googleSave(vip);
    expect(again.statusCode, again.body).toBe(200);
  });

  it("tags the Google Wallet strings with the holder's language, not always en (issue 40)", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    await rows(`update users set locale = 'es' where email = 'alice@example.com'`);
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    expect((await googleSave(vip)).statusCode).toBe(200);
    const fake = t.app.services.googleWallet as unknown as { objects: Map<string, Row>; classes: Map<string, Row> };
    const [object] = [...fake.objects.values()] as (Row & { classId: string })[];
    expect(object.ticketType).toEqual({ defaultValue: { language: 'es', value: 'VIP' } });
    const klass = fake.classes.get(object.classId) as Row & { venue: Record<string, Row> };
    expect(klass.eventName).toEqual({ defaultValue: { language: 'es', value: 'Laneway Sessions' } });
    expect(klass.venue.name).toMatchObject({ defaultValue: { language: 'es' } });
    expect(klass.venue.address).toMatchObject({ defaultValue: { language: 'es' } });
    // No rules: no days and zones. With them (issue 48): a text module in the holder's language.
    expect(object).not.toHaveProperty('textModulesData');
    const rules = { days: ['2027-07-10', '2027-07-11', '2027-07-12'], entries: 'once_per_day' };
    await rows(
      `update ticket_types set entry_rules = '${JSON.stringify(rules)}' where id = (select ticket_type_id from user_tickets where id = ${vip})`,
    );
    expect((await googleSave(vip)).statusCode).toBe(200);
    expect([...fake.objects.values()][0].textModulesData).toEqual([
      { id: 'admits', header: 'DÍAS Y ZONAS', body: 'sáb 10–lun 12' },
    ]);
  });

  it("the admissions snapshot carries the pass's TOTP secret to the event's own doors only", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const laneway = await eventId('Laneway Sessions');
    const vip = (await heldIds('alice@example.com', 'Laneway Sessions'))['VIP'];
    const admissions = (key: string) =>
      t.app.inject({ url: `/v1/access/events/${laneway}/admissions`, headers: { 'x-scanner-key': key } });
    type Page = { holders: { userId: number; walletTotpSecrets?: { userTicketId: number; totpSecret: string }[] }[] };
    const secretsIn = (page: Page) => page.holders.flatMap((h) => h.walletTotpSecrets ?? []);
    // No Google pass yet: no secret.
    expect(secretsIn((await admissions(KEY)).json<Page>())).toEqual([]);
    expect((await googleSave(vip)).statusCode).toBe(200);
    const fake = t.app.services.googleWallet as unknown as { objects: Map<string, Row> };
    const [object] = [...fake.objects.values()] as {
      rotatingBarcode: { totpDetails: { parameters: { key: string }[] } };
    }[];
    const secret = object.rotatingBarcode.totpDetails.parameters[0].key;

    // The event's organisation's door key and the platform key receive it.
    const [org] = await rows(`select organisation_id from events where id = ${laneway}`);
    const ownKey = await doorKey(Number(org.organisation_id));
    for (const key of [KEY, ownKey]) {
      const page = await admissions(key);
      expect(page.statusCode, page.body).toBe(200);
      expect(secretsIn(page.json<Page>())).toEqual([{ userTicketId: vip, totpSecret: secret }]);
    }
    // Another organisation's door key is refused the event, and the answer carries no secret.
    const [other] = await rows(`insert into organisations (slug, name) values ('other-org', 'Other') returning id`);
    const otherKey = await doorKey(Number(other.id));
    const refused = await admissions(otherKey);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(secret);
    expect(refused.body).not.toContain('walletTotpSecrets');

    // Once the ticket is gifted away, the old pass's secret leaves the snapshot.
    const gift = await t.app.inject({
      method: 'POST',
      url: '/v1/mobile/giftTicket',
      headers: bearer(alice),
      payload: { userTicketId: vip, username: 'bob#7315' },
    });
    expect(gift.statusCode).toBe(200);
    expect(secretsIn((await admissions(KEY)).json<Page>())).toEqual([]);
  });

  it("after a gift the old holder's Google code admits nothing, and says that its own ticket moved away", async () => {
    await revealAt('Laneway Sessions', new Date(t.clock.now().getTime() - 60_000));
    const laneway = await eventId('Laneway Sessions');
    const { VIP: vip, 'General Admission': ga } = await heldIds('alice@example.com', 'Laneway Sessions');
    expect((await googleSave(vip)).statusCode).toBe(200);
    const fake = t.app.services.googleWallet as unknown as { objects: Map<string, Row> };
    const [object] = [...fake.objects.values()] as { rotatingBarcode: { valuePattern: string } }[];
    const shown = object.rotatingBarcode.valuePattern
      .replace('{totp_timestamp_seconds}', String(Math.floor(t.clock.now().getTime() / 1000)))
      .replace('{totp_value_0}', '1');
    for (const userTicketId of [vip, ga]) {
      const gift = await t.app.inject({
        method: 'POST',
        url: '/v1/mobile/giftTicket',
        headers: bearer(alice),
        payload: { userTicketId, username: 'bob#7315' },
      });
      expect(gift.statusCode).toBe(200);
    }
    const r = await scan(shown, laneway);
    expect(r.json<{ admitted: unknown[] }>().admitted).toEqual([]);
    // Both her Laneway tickets left her, but this code is the VIP's: only the VIP is named.
    expect(r.json<{ movedAway: unknown[] }>().movedAway).toEqual([
      { userTicketId: vip, ticketName: 'VIP', reason: 'transferred' },
    ]);
    expect((await googleSave(vip)).statusCode).toBe(404);
  });
});

describe('wallet settings', () => {
  it('WALLET_TEST_MODE is refused in production; without settings neither wallet is configured', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', WALLET_TEST_MODE: 'true', ALLOW_SANDBOX: 'true' }, { dataDir: work }),
    ).toThrow(/WALLET_TEST_MODE/);
    const plain = loadConfig({}, { dataDir: work, jwtSecret: new Uint8Array(32) });
    expect(plain.wallet).toMatchObject({ testMode: false, apple: null, google: null });
  });
  it('without them the pass and the test CA answer 404 api.wallet.not_configured', async () => {
    const off = await createTestApp({ seed: true });
    try {
      const token = (await off.signIn('alice@example.com')).accessToken;
      const id = (await rawQuery<Row>(off.database.db, `select min(id) as id from user_tickets`)).rows[0].id as number;
      for (const r of [
        await off.app.inject({ url: `/v1/tickets/${id}/wallet/apple`, headers: bearer(token) }),
        await off.app.inject({ url: '/v1/wallet/test-ca.pem' }),
      ]) {
        expect(r.statusCode).toBe(404);
        expect(r.json()).toEqual({ message: 'api.wallet.not_configured' });
      }
    } finally {
      await off.close();
    }
  });
});
