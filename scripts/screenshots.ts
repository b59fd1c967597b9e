/**
 * Takes screenshots of the main screens from a running server (default http://127.0.0.1:8080,
 * dev outbox on): `npx tsx scripts/screenshots.ts [baseUrl] [outDir]`. Uses Debian's Chromium.
 */
import type { Locale } from '@tp/contract';
import { chromium, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { chromiumArgs } from '../e2e/chromium.js';
import { devSignIn } from './dev-sign-in.js';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const out = process.argv[3] ?? 'docs/screenshots';
const only = process.env.SHOTS?.split(',');
mkdirSync(out, { recursive: true });

const tokensFor = (email: string) => devSignIn(base, email);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: chromiumArgs,
});
const tokens = await tokensFor(process.env.SHOT_EMAIL ?? 'alice@example.com');

async function shot(
  name: string,
  lang: Locale,
  theme: 'light' | 'dark',
  width: number,
  path: string,
  signedIn: boolean,
  act?: (p: Page) => Promise<void>,
) {
  if (only && !only.some((o) => name.includes(o))) return;
  const ctx = await browser.newContext({
    viewport: { width, height: width < 500 ? 780 : 900 },
    deviceScaleFactor: 1,
    colorScheme: theme,
  });
  await ctx.addInitScript(
    ([t, th, signed]) => {
      localStorage.setItem('tp.theme', th);
      if (signed) {
        localStorage.setItem('tp.accessToken', (t as { accessToken: string }).accessToken);
        localStorage.setItem('tp.refreshToken', (t as { refreshToken: string }).refreshToken);
      }
    },
    [tokens, theme, signedIn] as const,
  );
  const page = await ctx.newPage();
  await page.goto(`${base}/${lang}/${path}`);
  await page.waitForLoadState('networkidle');
  if (act) await act(page);
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/${name}-${lang}-${theme}-${width}.png`, fullPage: false });
  await ctx.close();
}

// The README's set: phone width, English light and Spanish dark, plus the demo host page.
for (const [lang, theme, width] of [
  ['en', 'light', 360],
  ['es', 'dark', 360],
] as const) {
  await shot('login', lang, theme, width, '?PANEL_TAB=LOGIN', false);
  await shot('hub', lang, theme, width, '?PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB', true);
  await shot('qr', lang, theme, width, '?PANEL_TAB=QR', true);
  await shot('tickets', lang, theme, width, '?PANEL_TAB=MY_TICKET', true);
  await shot('ticket', lang, theme, width, '?PANEL_TAB=TICKET&USER_TICKET_ID=2', true);
  await shot('gift', lang, theme, width, '?PANEL_TAB=GIFT', true);
  await shot('resell', lang, theme, width, '?PANEL_TAB=RESELL', true);
}
// Wide screens: the 296 px side menu beside the content column (spec breakpoints).
await shot('tickets', 'en', 'light', 1280, '?PANEL_TAB=MY_TICKET', true);
await shot('tickets', 'es', 'dark', 1280, '?PANEL_TAB=MY_TICKET', true);
if (!only || only.includes('host')) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const page = await ctx.newPage();
  await page.goto(`${base}/`);
  await page.getByRole('banner').getByRole('button', { name: 'My tickets' }).click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/host-modal-en-light-1280.png` });
  await ctx.close();
}
await browser.close();
