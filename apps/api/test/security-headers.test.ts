/**
 * Security headers (issue 14 item 6): a CSP on every HTML page, frame-ancestors from EMBED_ORIGINS on
 * the panel document only, nosniff, Referrer-Policy, HSTS only for an https PUBLIC_URL, Stripe's
 * Connect.js origins only on the panel document and only with a publishable key.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

/** A stand-in for the Vite build: an inline theme script and a module script, as index.html has. */
const dist = mkdtempSync(join(tmpdir(), 'tp-dist-'));
writeFileSync(
  join(dist, 'index.html'),
  '<!doctype html>\n<html lang="en"><head><script>document.documentElement.dataset.theme="light"</script><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
);
mkdirSync(join(dist, 'scanner'));
writeFileSync(
  join(dist, 'scanner', 'index.html'),
  '<!doctype html>\n<html lang="en"><head><script type="module" src="/scanner/assets/scanner.js"></script></head><body></body></html>',
);

/** Parses a CSP header into directive -> sources. */
function csp(header: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof header, 'Content-Security-Policy header').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true, config: { panelDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const PAGES = ['/', '/en/', '/es/', '/r/no-such-listing', '/checkout/en/x/no-such-order', '/dev/mail', '/scanner'];

describe('security headers', () => {
  it('keeps document-only headers off answers that are not HTML (JSON, assets), but nosniff and CORP on', async () => {
    for (const url of ['/healthz', '/v1/config', '/public/demo/org-logo.svg']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toBeUndefined();
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
    }
  });

  it('puts the same headers on error answers (404, 401, 400)', async () => {
    for (const [url, status] of [
      ['/v1/nope', 404],
      ['/v1/auth/me', 401],
      ['/v1/list/ticket_listing?status=NOPE', 400],
    ] as const) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      expect(res.headers['content-security-policy'], url).toBeUndefined();
    }
    const bad = await t.app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives every HTML page a CSP, nosniff and no-referrer, and no HSTS over http', async () => {
    for (const url of PAGES) {
      const res = await t.app.inject({ url });
      expect(String(res.headers['content-type']), url).toMatch(/^text\/html/);
      const policy = csp(res.headers['content-security-policy']);
      expect([["'self'"], ["'none'"]], url).toContainEqual(policy['default-src']);
      expect(policy['object-src'] ?? policy['default-src'], url).toEqual(["'none'"]);
      expect(policy['script-src'], url).not.toContain("'unsafe-inline'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
    const json = await t.app.inject({ url: '/v1/config' });
    expect(json.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets only the panel document be framed, by EMBED_ORIGINS (default: self and the loopback site)', async () => {
    for (const url of ['/en/', '/es/']) {
      const res = await t.app.inject({ url });
      expect(csp(res.headers['content-security-policy'])['frame-ancestors']).toEqual([
        "'self'",
        'http://localhost:*',
        'http://127.0.0.1:*',
      ]);
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
    for (const url of PAGES.filter((u) => !u.startsWith('/e'))) {
      const res = await t.app.inject({ url });
      expect(csp(res.headers['content-security-policy'])['frame-ancestors'], url).toEqual(["'none'"]);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('runs the panel document inline scripts under a fresh nonce; the demo page has none', async () => {
    const a = await t.app.inject({ url: '/en/' });
    const nonce = csp(a.headers['content-security-policy'])['script-src'].find((s) => s.startsWith("'nonce-"));
    expect(nonce).toBeDefined();
    const value = nonce!.slice("'nonce-".length, -1);
    expect(a.body.match(/<script nonce="([^"]+)"/g)).toHaveLength(2);
    expect(a.body).toContain(`<script nonce="${value}">`);
    const b = await t.app.inject({ url: '/en/' });
    expect(b.headers['content-security-policy']).not.toBe(a.headers['content-security-policy']);
    const host = await t.app.inject({ url: '/' });
    const hostPolicy = csp(host.headers['content-security-policy']);
    // The demo organiser page has no inline script: its own code is the built /demo-host.js.
    expect(host.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(host.body).toContain('/demo-host.js"></script>');
    // The demo organiser page loads the loader and frames the panel from PUBLIC_URL.
    expect(hostPolicy['script-src']).toContain('http://panel.test');
    expect(hostPolicy['frame-src']).toContain('http://panel.test');
  });

  it('does not allow Stripe anywhere without a publishable key', async () => {
    for (const url of PAGES)
      expect(String((await t.app.inject({ url })).headers['content-security-policy'])).not.toMatch(/stripe/);
  });
});

describe('security headers with https, EMBED_ORIGINS and Stripe', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({
      config: {
        panelDistDir: dist,
        publicUrl: 'https://tickets.example.com',
        embedOrigins: ["'self'", 'https://festival.example.org', 'https://*.example.net'],
        stripePublishableKey: 'pk_test_123',
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('sends HSTS, frames the panel only from EMBED_ORIGINS and loads Connect.js only on the panel document', async () => {
    const panel = await s.app.inject({ url: '/en/' });
    expect(panel.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const policy = csp(panel.headers['content-security-policy']);
    expect(policy['frame-ancestors']).toEqual(["'self'", 'https://festival.example.org', 'https://*.example.net']);
    expect(policy['script-src']).toContain('https://connect-js.stripe.com');
    expect(policy['frame-src']).toContain('https://connect-js.stripe.com');
    for (const url of ['/', '/r/x', '/scanner']) {
      const res = await s.app.inject({ url });
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=\d+/);
      expect(String(res.headers['content-security-policy']), url).not.toMatch(/stripe/);
    }
  });
});
