/**
 * The organiser's console page (issue 21, decision 024): GET /console serves the built console app in the
 * page's language under a strict CSP (no inline script or style, no framing); its assets are static files and
 * its document goes out only through the route; unbuilt, a 503 with a hint.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './helper.js';

function builtPanel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tp-panel-dist-'));
  mkdirSync(join(dir, 'console', 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'console', 'index.html'),
    '<!doctype html><html lang="en"><head><title>Organiser console</title><script type="module" crossorigin src="/console/assets/index-abc.js"></script></head><body></body></html>',
  );
  writeFileSync(join(dir, 'console', 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

describe('GET /console', () => {
  it('serves the built console in en and es under a strict CSP', async () => {
    const dist = builtPanel();
    const t = await createTestApp({ config: { panelDistDir: dist } });
    try {
      const en = await t.app.inject({ url: '/console' });
      expect(en.statusCode).toBe(200);
      expect(en.headers['content-type']).toMatch(/^text\/html/);
      expect(en.body).toContain('<html lang="en"');
      expect(en.body).toContain('src="/console/assets/index-abc.js"');
      const csp = String(en.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(en.headers['x-frame-options']).toBe('DENY');

      expect(csp).not.toContain('stripe');

      const es = await t.app.inject({ url: '/console?lang=es' });
      expect(es.body).toContain('<html lang="es"');
      expect(es.body).toContain('<title>Consola del organizador</title>');
      const slash = await t.app.inject({ url: '/console/?lang=es' });
      expect(slash.statusCode).toBe(302);
      expect(slash.headers.location).toBe('/console?lang=es');

      expect((await t.app.inject({ url: '/console/assets/index-abc.js' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/console/index.html' })).statusCode).toBe(404);
    } finally {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("lets Stripe's Connect.js in only when Stripe is configured (the organisation's payout onboarding, issue 45)", async () => {
    const dist = builtPanel();
    const t = await createTestApp({ config: { panelDistDir: dist, stripePublishableKey: 'pk_test_123' } });
    try {
      const csp = String((await t.app.inject({ url: '/console' })).headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://connect-js.stripe.com https://js.stripe.com;");
      expect(csp).toContain("frame-src 'self' https://connect-js.stripe.com https://js.stripe.com;");
      expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
    } finally {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("serves the page at each screen's URL, the assets as files, and 404 elsewhere (issue 41, point 5)", async () => {
    const dist = builtPanel();
    const t = await createTestApp({ config: { panelDistDir: dist } });
    try {
      for (const url of [
        '/console/events',
        '/console/events/evt-2027%20sydney/holders',
        '/console/holders/T-1002',
        '/console/webhooks/3/deliveries',
        '/console/activity?lang=en',
      ]) {
        const r = await t.app.inject({ url });
        expect(r.statusCode, url).toBe(200);
        expect(r.headers['content-type'], url).toMatch(/^text\/html/);
        expect(r.body, url).toContain('src="/console/assets/index-abc.js"');
        expect(String(r.headers['content-security-policy']), url).toContain("default-src 'none'");
        expect(r.headers['x-frame-options'], url).toBe('DENY');
      }
      const es = await t.app.inject({ url: '/console/events/evt-1/dashboard?lang=es' });
      expect(es.body).toContain('<html lang="es"');
      expect(es.body).toContain('<title>Consola del organizador</title>');

      const asset = await t.app.inject({ url: '/console/assets/index-abc.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log(1)');
      for (const url of ['/console/assets/missing.js', '/console/nothing-here', '/console/index.html'])
        expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    } finally {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('answers 503 with a hint while the console is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tp-panel-dist-'));
    const t = await createTestApp({ config: { panelDistDir: empty } });
    try {
      const r = await t.app.inject({ url: '/console' });
      expect(r.statusCode).toBe(503);
      expect(r.body).toContain('npm run build');
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
