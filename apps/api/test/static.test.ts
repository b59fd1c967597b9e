/**
 * The panel's build output over HTTP (issue 9, bytes): brotli and gzip copies made at build are
 * chosen by Accept-Encoding, content-hashed assets are immutable for a year, the panel document is
 * revalidated on every use and the unhashed loader `/embed.js` briefly cached then revalidated by ETag.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let dist: string;
const script = `console.log(${JSON.stringify('panel '.repeat(200))});\n`;
const loader = `window.TicketPanel = {};${' '.repeat(500)}\n`;

/** A build output like Vite's with vite-plugin-compression2: each text file plus .br and .gz copies. */
function writeWithCopies(file: string, body: string) {
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body));
  writeFileSync(`${file}.gz`, gzipSync(body));
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'tp-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeWithCopies(join(dist, 'assets/index-AbC123xy.js'), script);
  writeWithCopies(join(dist, 'embed.js'), loader);
  writeWithCopies(
    join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>My tickets</title></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({ config: { panelDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe('panel static files', () => {
  it('serves the brotli copy when the browser accepts br, gzip when only gzip, identity otherwise', async () => {
    const br = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 5);

    const gz = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('marks content-hashed assets immutable for a year, whatever the encoding', async () => {
    for (const enc of ['br', 'gzip', 'identity']) {
      const r = await get('/assets/index-AbC123xy.js', { 'accept-encoding': enc });
      expect(r.headers['cache-control'], enc).toBe('public, max-age=31536000, immutable');
    }
  });

  it('caches the unhashed loader for minutes and revalidates it by ETag', async () => {
    const r = await get('/embed.js', { 'accept-encoding': 'br' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('public, max-age=300');
    const etag = r.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/embed.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    // Another representation has another ETag, so a cache never serves gzip bytes for br.
    expect((await get('/embed.js', { 'accept-encoding': 'gzip' })).headers.etag).not.toBe(etag);
  });

  it('sends the panel document with no-cache and never the raw index.html', async () => {
    const r = await get('/en/', { 'accept-encoding': 'br' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.body).toContain('<html lang="en"');
    expect((await get('/index.html', { 'accept-encoding': 'br' })).statusCode).toBe(404);
    expect((await get('/index.html.br')).statusCode).toBe(404);
  });

  it("names the panel document's language and first title from the API's catalogue (pages.panel.title)", async () => {
    const es = await get('/es/');
    expect(es.body).toContain('<html lang="es"');
    expect(es.body).toContain('<title>Mis entradas</title>');
    expect((await get('/en/')).body).toContain('<title>My tickets</title>');
  });
});
