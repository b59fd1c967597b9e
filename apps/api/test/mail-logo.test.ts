/**
 * Issue 41, point 9: no remote resource in a mail, the organisation's logo included. A logo URL set or changed is
 * fetched in the background (the `mail.logo` job: 5 s, 512 KB, the webhooks' SSRF guard), drawn as an 80 px PNG by
 * the avatars' decoding path, and every mail of the organisation carries it as an inline part (`cid:`); until then,
 * or when it was refused, the header shows the name alone. Mails are read back as a mail client reads them
 * (nodemailer's stream transport, then mailparser). The logo server is this test's own HTTPS server on 127.0.0.1,
 * with a certificate the app is told to trust (`logoFetchCa`).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import forge from 'node-forge';
import nodemailer from 'nodemailer';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_CID } from '../src/providers/mail/mail-logo.js';
import type { MailMessage } from '../src/providers/mail/mail.provider.js';
import { bearer, createTestApp, rawQuery, type TestApp, type TestAppOptions } from './helper.js';

const ADMIN = 'admin-key-for-tests';

/** A self-signed certificate for 127.0.0.1 (node's RSA key, node-forge's certificate). */
function selfSigned(): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const name = [{ name: 'commonName', value: '127.0.0.1' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey };
}

const tls = selfSigned();
let server: Server;
let base: string;
/** Requests the logo server got, by path. */
const hits: string[] = [];
/** Answers the logo server holds open (`/hang`), ended in `afterAll`. */
const held: { destroy: () => void }[] = [];
/** Whether the app gave up the last `/hang` request (closed its connection). */
let hangClosed = false;

beforeAll(async () => {
  const png = await sharp({
    create: { width: 300, height: 150, channels: 4, background: { r: 200, g: 20, b: 20, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#0a6"/></svg>',
  );
  // A PNG signature then 600 KB: over the 512 KB bound, told by Content-Length or only by counting (chunked).
  const big = Buffer.concat([png.subarray(0, 8), randomBytes(600 * 1024)]);
  server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    hits.push(req.url ?? '');
    switch (req.url) {
      case '/logo.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      case '/logo.svg':
        return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg);
      case '/big.png':
        return res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big);
      case '/big-chunked.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < big.length; i += 64 * 1024) res.write(big.subarray(i, i + 64 * 1024));
        return res.end();
      case '/text':
        return res.writeHead(200, { 'content-type': 'image/png' }).end('not an image at all');
      case '/hang':
        hangClosed = false;
        res.on('close', () => (hangClosed = true));
        held.push(res);
        return;
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const h of held) h.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const put = (key: string, path: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/v1/org/${path}`, headers: bearer(key), payload });
const patchLogo = (key: string, logoUrl: string | null) =>
  t.app.inject({ method: 'PATCH', url: '/v1/org/organisation', headers: bearer(key), payload: { logoUrl } });

/**
 * The app, and the organisation `acme` (no logo unless `logoUrl`) with one event and one ticket type; answers its
 * API key.
 */
async function start(opts: TestAppOptions = {}, logoUrl?: string): Promise<string> {
  t = await createTestApp({ ...opts, config: { adminKey: ADMIN, ...opts.config }, logoFetchCa: tls.cert });
  const r = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/organisations',
    headers: bearer(ADMIN),
    payload: { slug: 'acme', name: 'Acme Events', primaryColor: '#ff9900', ...(logoUrl ? { logoUrl } : {}) },
  });
  expect(r.statusCode, r.body).toBe(201);
  const { apiKey } = r.json<{ apiKey: string }>();
  const ev = await put(apiKey, 'events/evt-1', {
    name: 'Harbour Lights',
    venue: 'The Domain',
    address: 'Art Gallery Rd',
    city: 'Sydney',
    country: 'AU',
    latitude: -33.869,
    longitude: 151.217,
    startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    endsAt: new Date(Date.now() + 30 * 86_400_000 + 4 * 3_600_000).toISOString(),
    timeZone: 'Australia/Sydney',
  });
  expect(ev.statusCode, ev.body).toBe(201);
  const tt = await put(apiKey, 'ticket-types/ga', {
    eventExternalId: 'evt-1',
    name: 'GA',
    priceCents: 5000,
    currency: 'AUD',
    isGiftable: true,
    isResellable: true,
    isSwappable: false,
  });
  expect(tt.statusCode, tt.body).toBe(201);
  return apiKey;
}

let tickets = 0;
/** Issues a ticket to `email` (the ticket mail, under the organisation's brand); answers the mail it sent. */
async function ticketMail(key: string, email: string): Promise<MailMessage> {
  const r = await put(key, `tickets/t-${++tickets}`, { ticketTypeExternalId: 'ga', holderEmail: email });
  expect(r.statusCode, r.body).toBe(201);
  await t.app.services.jobs.runDue();
  const m = t.mail.sent.filter((x) => x.to === email).at(-1);
  expect(m, email).toBeDefined();
  return m!;
}

/** The message as SMTP would carry it, read back by mailparser. */
async function parsed(m: MailMessage) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({ from: 'Ticket Panel <no-reply@panel.test>', ...m });
  // keepCidLinks: the HTML as sent (mailparser otherwise rewrites `cid:` to `data:` URLs for display).
  return simpleParser(info.message, { keepCidLinks: true });
}

/** Every URL a mail client would load by itself: src, background, stylesheet links, CSS url() and @import. */
function loadedUrls(html: string): string[] {
  return [
    ...[...html.matchAll(/<(?!a\b)[a-z]+\b[^>]*\b(?:src|href|background)\s*=\s*"([^"]*)"/gi)].map((x) => x[1]),
    ...[...html.matchAll(/url\(\s*['"]?([^'")\s]+)/gi)].map((x) => x[1]),
    ...[...html.matchAll(/@import\s+['"]?([^'";\s]+)/gi)].map((x) => x[1]),
  ];
}

/** Asserts the mail shows the name alone: no image, no logo part, nothing loaded from anywhere. */
async function expectNameAlone(m: MailMessage) {
  const mail = await parsed(m);
  const html = typeof mail.html === 'string' ? mail.html : '';
  expect(html).toContain('Acme Events');
  expect(html).not.toMatch(/<img\b/i);
  expect(loadedUrls(html)).toEqual([]);
  expect(mail.attachments.filter((a) => a.contentType === 'image/png')).toEqual([]);
}

/** Asserts the mail carries the logo inline and loads nothing; answers the logo's PNG. */
async function expectInlineLogo(m: MailMessage): Promise<Buffer> {
  const mail = await parsed(m);
  const html = typeof mail.html === 'string' ? mail.html : '';
  const logo = mail.attachments.find((a) => a.contentType === 'image/png');
  expect(logo?.cid).toBe(LOGO_CID);
  expect(logo?.contentDisposition).toBe('inline');
  // Beside the name, with an empty alt text: a client that blocks images, or a screen reader, says the name once.
  expect(html).toMatch(new RegExp(`<img src="cid:${LOGO_CID}" alt="" [^>]*><span[^>]*>Acme Events</span>`));
  expect(html).not.toContain('alt="Acme Events"');
  // Nothing but the inline part: no http(s) URL in any src, background, stylesheet or CSS url().
  expect(loadedUrls(html)).toEqual([`cid:${LOGO_CID}`]);
  expect(html).not.toMatch(/<link\b/i);
  const meta = await sharp(logo!.content).metadata();
  expect(meta).toMatchObject({ format: 'png', width: 80, height: 80, hasAlpha: true });
  // The plain-text part is the same as ever: the name, never the logo.
  expect(m.text).not.toMatch(/logo|cid:|127\.0\.0\.1/i);
  return logo!.content;
}

describe('the organisation logo travels inside its e-mails (issue 41, point 9)', () => {
  it('is fetched after a branding change, arrives as an inline PNG part and follows the next change', async () => {
    const key = await start();
    await expectNameAlone(await ticketMail(key, 'ann@example.com'));

    // The request only enqueues; the job (run after the answer here) fetches it once.
    const before = hits.length;
    expect((await patchLogo(key, `${base}/logo.png`)).statusCode).toBe(200);
    expect(hits.slice(before)).toEqual(['/logo.png']);
    const first = await expectInlineLogo(await ticketMail(key, 'bea@example.com'));
    // Drawn whole (contain) on transparency: the 2:1 red logo leaves the top rows clear.
    const { data } = await sharp(first).raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    expect(data[(40 * 80 + 40) * 4]).toBeGreaterThan(150);

    // Another logo: the next mail carries the new one; the same URL saved again is not fetched again.
    expect((await patchLogo(key, `${base}/logo.svg`)).statusCode).toBe(200);
    const second = await expectInlineLogo(await ticketMail(key, 'cai@example.com'));
    expect(second.equals(first)).toBe(false);
    const again = hits.length;
    expect((await patchLogo(key, `${base}/logo.svg`)).statusCode).toBe(200);
    expect(hits.length).toBe(again);

    // The logo taken away: the name alone at once.
    expect((await patchLogo(key, null)).statusCode).toBe(200);
    await expectNameAlone(await ticketMail(key, 'dev@example.com'));
    // Two logos, each decoded in a fresh child process (as avatars are): seconds each on a loaded machine.
  }, 60_000);

  it('an organisation created with a logo has it in its first mail', async () => {
    const key = await start({}, `${base}/logo.svg`);
    await expectInlineLogo(await ticketMail(key, 'ann@example.com'));
  });

  it('a logo too big, not an image or not found leaves the name alone; the job is kept as failed', async () => {
    const key = await start();
    expect((await patchLogo(key, `${base}/logo.png`)).statusCode).toBe(200);
    await expectInlineLogo(await ticketMail(key, 'ann@example.com'));
    for (const path of ['/big.png', '/big-chunked.png', '/text', '/missing.png']) {
      const before = hits.length;
      expect((await patchLogo(key, `${base}${path}`)).statusCode, path).toBe(200);
      expect(hits.slice(before), path).toEqual([path]);
      await expectNameAlone(await ticketMail(key, `holder${path.replace(/\W/g, '')}@example.com`));
    }
    const failed = await t.app.inject({ url: '/v1/admin/jobs/failed', headers: bearer(ADMIN) });
    expect(failed.statusCode, failed.body).toBe(200);
    const logoJobs = failed.json<{ kind: string; lastError: string | null }[]>().filter((j) => j.kind === 'mail.logo');
    expect(logoJobs.map((j) => j.lastError?.match(/logo refused: \w+/)?.[0]).sort()).toEqual([
      'logo refused: http_status',
      'logo refused: not_an_image',
      'logo refused: too_large',
      'logo refused: too_large',
    ]);
  });

  it('a logo server that never answers is cut at 5 s and holds no other mail', async () => {
    const key = await start({ runJobs: false });
    const started = Date.now();
    expect((await patchLogo(key, `${base}/hang`)).statusCode).toBe(200);
    // The worker took the logo job on its own; meanwhile a ticket mail goes out at once.
    await expect.poll(() => hits.includes('/hang'), { timeout: 4000 }).toBe(true);
    const r = await put(key, 'tickets/t-hang', { ticketTypeExternalId: 'ga', holderEmail: 'eve@example.com' });
    expect(r.statusCode, r.body).toBe(201);
    await expect.poll(() => t.mail.sent.some((m) => m.to === 'eve@example.com'), { timeout: 4000 }).toBe(true);
    // Sent while the logo job still waited for its server.
    expect(hangClosed).toBe(false);
    await expectNameAlone(t.mail.sent.find((m) => m.to === 'eve@example.com')!);
    // The fetch gives up at 5 s: the job fails (to be retried later) and the mails keep the name alone. The worker
    // runs the job on its own (runDue would not wait for a job it already holds): wait for the cut, then its record.
    await expect.poll(() => hangClosed, { timeout: 12_000 }).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    expect(Date.now() - started).toBeLessThan(15_000);
    const lastErrors = async () =>
      (
        await rawQuery<{ last_error: string | null }>(
          t.database.db,
          `select last_error from jobs where kind = 'mail.logo'`,
        )
      ).rows.map((j) => j.last_error);
    await expect.poll(lastErrors, { timeout: 5000 }).toEqual(['logo fetch timed out after 5000 ms']);
  });

  it('in production mode a loopback or private address is refused without a request', async () => {
    const key = await start({ config: { logoAllowLocalUrls: false } });
    const port = (server.address() as AddressInfo).port;
    const before = hits.length;
    const urls = [`${base}/logo.png`, `https://localhost:${port}/logo.png`, `https://${hostname()}:${port}/logo.png`];
    for (const [i, url] of urls.entries()) {
      expect((await patchLogo(key, url)).statusCode, url).toBe(200);
      await expectNameAlone(await ticketMail(key, `p${i}@example.com`));
    }
    expect(hits.length).toBe(before);
  });
});
