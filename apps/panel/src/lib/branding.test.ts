// @vitest-environment jsdom
/**
 * The panel per organiser (issue 12): `?org=` makes every API call carry `X-Organisation`, and the
 * organisation's branding is laid over the configuration and themes the panel (lib/branding).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrganisationBranding } from '@tp/contract';
import { aPanelConfig } from '../test/fixtures';

const CONFIG = aPanelConfig({
  orgName: 'Default Org',
  orgLogo: '/public/default.svg',
  orgWebsite: 'https://default.example',
  productName: 'Ticket Panel',
  productSiteUrl: 'http://localhost',
  helpCenterUrl: 'http://localhost/help',
  appUrl: 'http://localhost/app',
  assetsBaseUrl: 'http://localhost',
  twitterVia: 'ticketpanel',
});
const RIVER: OrganisationBranding = {
  slug: 'river',
  name: 'River Festival',
  logoUrl: 'https://river.example/logo.png',
  primaryColor: '#ffeb3b',
  websiteUrl: null,
  helpCenterUrl: 'https://river.example/help',
  appUrl: null,
  theme: {
    light: { accent: '#7a6500', accentText: '#ffffff', accentSoft: '#efece0', focus: '0 0 0 3px rgb(122 101 0 / 40%)' },
    dark: { accent: '#ffeb3b', accentText: '#111400', accentSoft: '#4b4a26', focus: '0 0 0 3px rgb(255 235 59 / 40%)' },
  },
};

/** Loads the panel's modules fresh for a page opened at `search`. */
async function openAt(search: string) {
  window.history.replaceState(null, '', `/en/${search}`);
  vi.resetModules();
  const client = await import('./api-client');
  const { fakeApi, jsonResponse } = await import('../test/fetch');
  const seen: { path: string; headers: Record<string, string> }[] = [];
  fakeApi(({ path, headers }) => {
    seen.push({ path, headers });
    if (path === '/config') return jsonResponse(CONFIG);
    if (path === '/organisations/river') return jsonResponse(RIVER);
    if (path.startsWith('/organisations/')) return jsonResponse({ message: 'api.organisation.not_found' }, 404);
    return jsonResponse([]);
  });
  const { configQuery } = await import('./queries');
  return { client, seen, loadConfig: () => (configQuery.queryFn as () => Promise<unknown>)() };
}

afterEach(() => {
  document.getElementById('tp-brand')?.remove();
  window.history.replaceState(null, '', '/');
});

describe('the panel per organiser', () => {
  it('sends X-Organisation on every call when opened with ?org=', async () => {
    const { client, seen } = await openAt('?org=river&PANEL_TAB=MY_TICKET');
    await client.client.GET('/v1/list/ticket_listing', { params: { query: { status: 'UPCOMING' } } });
    expect(seen[0].headers['x-organisation']).toBe('river');
  });

  it('sends a slug that is not one encoded, so the API answers it (404) instead of fetch failing', async () => {
    const { client, seen } = await openAt(`?org=${encodeURIComponent('río é')}`);
    await client.client.GET('/v1/list/ticket_listing', { params: { query: { status: 'UPCOMING' } } });
    expect(seen[0].headers['x-organisation']).toBe('r%C3%ADo%20%C3%A9');
  });

  it('sends no X-Organisation and loads no branding without ?org=', async () => {
    const { client, seen, loadConfig } = await openAt('?PANEL_TAB=LOGIN');
    await client.client.GET('/v1/list/ticket_listing', { params: { query: { status: 'UPCOMING' } } });
    expect(seen[0].headers['x-organisation']).toBeUndefined();
    expect(await loadConfig()).toEqual(CONFIG);
    expect(seen.map((s) => s.path)).not.toContain('/organisations/river');
    expect(document.getElementById('tp-brand')).toBeNull();
  });

  it("lays the organisation's name, logo and links over the defaults and themes the panel", async () => {
    const { loadConfig } = await openAt('?org=river');
    expect(await loadConfig()).toMatchObject({
      orgName: 'River Festival',
      orgLogo: 'https://river.example/logo.png',
      orgWebsite: null,
      helpCenterUrl: 'https://river.example/help',
      // No app link of its own: the default stays.
      appUrl: 'http://localhost/app',
      organisation: RIVER,
    });
    const css = document.getElementById('tp-brand')!.textContent;
    // The API's palettes: one rule per theme, after the panel's own styles.
    expect(css).toContain(
      ':root{--accent:#7a6500;--accent-text:#ffffff;--accent-soft:#efece0;--focus:0 0 0 3px rgb(122 101 0 / 40%)}',
    );
    expect(css).toContain(":root[data-theme='dark']{--accent:#ffeb3b;--accent-text:#111400;");
    expect(document.head.lastElementChild?.id).toBe('tp-brand');
  });

  it('keeps the defaults for an unknown organisation', async () => {
    const { loadConfig } = await openAt('?org=nobody');
    expect(await loadConfig()).toEqual(CONFIG);
    expect(document.getElementById('tp-brand')).toBeNull();
  });
});
