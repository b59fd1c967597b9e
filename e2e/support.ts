/**
 * Shared steps for the Playwright specs: sign a person in (through the API, or through the panel as
 * a person would), the server's URLs, waiting for a page to settle, and the accessibility audit. The server is
 * started per worker slot by global-setup.ts (fixtures.ts).
 */
import type { Locale } from '@tp/contract';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { expect, type BrowserContext, type Frame, type FrameLocator, type Page, type Request } from '@playwright/test';
import { mailCount, waitForCode } from './mail';
import { test } from './fixtures';
import { startServer, type StartedServer } from './server';

export { addVirtualAuthenticator } from './virtual-authenticator';

export const baseUrl = () => process.env.E2E_BASE_URL!;
/** The same server under another origin (localhost vs 127.0.0.1): the demo host page as a third-party site. */
export const hostUrl = () => process.env.E2E_HOST_URL!;

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * Signs `email` in through the API (code read from the mail sink); a new account gets `names`. `base`: another
 * server mailing to the same sink (a spec's own, e2e/server.ts).
 */
export async function apiSignIn(
  email: string,
  names = { givenName: 'Test', familyName: 'Person' },
  base = baseUrl(),
): Promise<Tokens> {
  const before = mailCount();
  const r1 = await fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!r1.ok) throw new Error(`sign-in request failed: ${r1.status} ${await r1.text()}`);
  const { sessionId } = (await r1.json()) as { sessionId: string };
  const otp = await waitForCode(email, before);
  const r2 = await fetch(`${base}/v1/auth/verifyLoginRequest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, session: sessionId, otp }),
  });
  if (!r2.ok) throw new Error(`verify failed: ${r2.status} ${await r2.text()}`);
  const tokens = (await r2.json()) as Tokens;
  const me = (await (
    await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
  ).json()) as { givenName?: string | null };
  if (!me.givenName) {
    await fetch(`${base}/v1/auth/profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.accessToken}` },
      body: JSON.stringify(names),
    });
  }
  return tokens;
}

/** Puts a signed-in session for `email` into the context's storage (before any page loads); `base` as apiSignIn's. */
export async function signInContext(context: BrowserContext, email: string, base = baseUrl()): Promise<Tokens> {
  const tokens = await apiSignIn(email, undefined, base);
  await context.addInitScript((t) => {
    if (!sessionStorage.getItem('e2e.seeded')) {
      localStorage.setItem('tp.accessToken', t.accessToken);
      localStorage.setItem('tp.refreshToken', t.refreshToken);
      sessionStorage.setItem('e2e.seeded', '1');
    }
  }, tokens);
  return tokens;
}

/** Opens the standalone panel at `/{lang}/?{query}`. */
export async function openPanel(page: Page, query: string, lang: Locale = 'en') {
  await page.goto(`${baseUrl()}/${lang}/?${query}`);
}

/** Signs in through the panel's LOGIN and OTP screens (and PERSONAL_DATA for a new account); `page` may be the embed iframe. */
export async function signInViaPanel(
  page: Page | FrameLocator,
  email: string,
  names = { givenName: 'Test', familyName: 'Person' },
) {
  const before = mailCount();
  await page.getByRole('textbox', { name: /e-?mail|correo/i }).fill(email);
  await page.getByRole('button', { name: /continue|continuar/i }).click();
  const code = await waitForCode(email, before);
  await page.getByRole('textbox', { name: /code|código/i }).fill(code);
  await page.getByRole('button', { name: /continue|continuar/i }).click();
  // A new account gets PERSONAL_DATA; an existing one goes straight to QR (no hub over it since issue 40).
  const personal = page.getByRole('heading', { name: /tell us your name|dinos tu nombre/i });
  const signedIn = page.getByRole('img', { name: /QR/ }).or(page.getByRole('dialog'));
  await expect(personal.or(signedIn).first()).toBeVisible();
  // Decide on the element that showed up (an instant count can miss it while a lazy screen settles).
  const isNew = await personal
    .or(signedIn)
    .first()
    .evaluate((el) => el.tagName === 'H1');
  if (isNew) {
    const first = page.getByRole('textbox', { name: /first name|^nombre/i });
    const last = page.getByRole('textbox', { name: /last name|apellido/i });
    await first.fill(names.givenName);
    await last.fill(names.familyName);
    await expect(first).toHaveValue(names.givenName);
    await page.getByRole('button', { name: /continue|continuar/i }).click();
    await expect(signedIn.first()).toBeVisible();
  }
}

/** A fresh e-mail address for a new account. */
export const freshEmail = (tag: string) =>
  `${tag}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`;

/** Requests in flight per browser context, and when that set last changed (`watchNetwork`). */
const inFlight = new WeakMap<BrowserContext, { pending: Set<Request>; changedAt: number }>();

/**
 * Starts counting `context`'s requests in flight (its pages, frames and service worker) for `settled`; call it
 * before the context's first page loads.
 */
export function watchNetwork(context: BrowserContext): void {
  if (inFlight.has(context)) return;
  const net = { pending: new Set<Request>(), changedAt: Date.now() };
  const done = (request: Request) => {
    net.pending.delete(request);
    net.changedAt = Date.now();
  };
  context.on('request', (request) => {
    net.pending.add(request);
    net.changedAt = Date.now();
  });
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  inFlight.set(context, net);
}

/**
 * Resolves once `page` has loaded, its context has had no request in flight for `quietMs` milliseconds and its
 * document no change for as long, and no finite animation runs: lazy screens, their queries, the renders they cause
 * and their fades are done. Playwright's `networkidle` waits a fixed 500 ms and looks only at the network; each
 * screen of an audit or screenshot loop paid it. Throws after 30 s, naming the requests still open.
 */
export async function settled(page: Page, quietMs = 150): Promise<void> {
  const net = inFlight.get(page.context());
  if (!net) throw new Error('settled(): call watchNetwork(context) before the page loads');
  await page.waitForLoadState('load');
  const deadline = Date.now() + 30_000;
  for (;;) {
    while (net.pending.size > 0 || Date.now() - net.changedAt < quietMs) {
      if (Date.now() > deadline) {
        throw new Error(`the network never settled: ${[...net.pending].map((r) => r.url()).join(', ')}`);
      }
      await page.waitForTimeout(25);
    }
    const quietSince = net.changedAt;
    // In the page: a script that arrived runs before this, and the render it schedules resets the wait.
    const domQuiet = await page.evaluate(
      ([quiet, within]) =>
        new Promise<boolean>((resolve) => {
          const giveUp = setTimeout(() => finish(false), within);
          let timer = setTimeout(() => finish(true), quiet);
          const observer = new MutationObserver(() => {
            clearTimeout(timer);
            timer = setTimeout(() => finish(true), quiet);
          });
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          function finish(quietNow: boolean) {
            observer.disconnect();
            clearTimeout(timer);
            clearTimeout(giveUp);
            resolve(quietNow);
          }
        }),
      [quietMs, Math.max(1, deadline - Date.now())] as const,
    );
    if (!domQuiet) throw new Error('the page never stopped changing');
    if (net.changedAt === quietSince && net.pending.size === 0) break;
  }
  await animationsDone(page);
}

/** Resolves once no finite animation or transition runs (a dialog fading in is lighter mid-fade than it will be). */
export const animationsDone = (page: Page) =>
  page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** axe-core's browser build (package.json pins axe-core to 4.13). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's results for one frame's own document (`iframes: false`): axe is evaluated into the document once
 * (through the DevTools protocol, so the panel's CSP does not apply) and then only run. `AxeBuilder` evaluates its
 * 500 KB again and opens a page for its last step on every call (0.7 s against 0.27 s per audit here), and it gives
 * each frame one second to take axe's source: on a loaded machine a slower frame was skipped without a word and the
 * audit passed (the CI run of stop 55 failed on exactly that).
 *
 * @param rules - `{ tags }` for a rule set (the WCAG tags), or `{ rules }` for named rules only.
 */
async function axeInFrame(frame: Frame, rules: AxeRules): Promise<AxeResults> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  return frame.evaluate(
    (only) =>
      (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } }).axe.run(document, {
        runOnly: 'rules' in only ? { type: 'rule', values: only.rules } : { type: 'tag', values: only.tags },
        iframes: false,
      }),
    rules,
  );
}

type AxeRules = { tags: string[] } | { rules: string[] };

/**
 * axe-core's violations in the page and in every frame it holds (the demo host page's panel is one), each frame
 * audited in its own document, so none is left out however slowly it loads. Throws if a frame cannot be audited.
 */
export async function axeViolations(
  page: Page,
  rules: AxeRules = { tags: WCAG_TAGS },
): Promise<AxeResults['violations']> {
  const perFrame = await Promise.all(page.frames().map((frame) => axeInFrame(frame, rules)));
  return perFrame.flatMap((r) => r.violations);
}

/**
 * WCAG 2.1 A and AA violations (axe-core) on the page as it is now, its frames included, once running transitions
 * have ended (a dialog fading in is lighter mid-fade than it will be, and axe would measure that): the test fails
 * listing them, prefixed with `what`.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await animationsDone(page);
  const found = (await axeViolations(page)).map(
    (v) =>
      `${what}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  expect(found, found.join('\n')).toEqual([]);
}

/**
 * A product server of the spec's own beside the shared one, for settings the shared server must not have (a resend
 * window, a short step-up window): its own data directory, freshly seeded, mailing to the worker's sink. Started
 * before the spec's tests (the call registers the hooks), stopped and removed after them. `publicHost`: its
 * PUBLIC_URL's host (startServer's `publicHost`), `localhost` for a spec that makes passkeys.
 * @returns the started server (read it inside a test)
 */
export function ownServer(tag: string, env: Record<string, string>, publicHost?: string): () => StartedServer {
  let server: StartedServer | undefined;
  let dataDir: string | undefined;
  test.beforeAll(async () => {
    test.setTimeout(330_000); // the server's start (migrations, seed) on a loaded machine
    dataDir = mkdtempSync(join(tmpdir(), `tp-e2e-${tag}-`));
    server = await startServer({ dataDir, smtpUrl: process.env.E2E_SMTP_URL!, env, publicHost });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => server!;
}

/**
 * Settles the page (no hover left on what was pressed), then calls `shoot(theme)` in the light and then the dark
 * system theme, once the panel follows it and its colours have faded in (0.15 s).
 */
export async function inEachTheme(page: Page, shoot: (theme: 'light' | 'dark') => Promise<unknown>): Promise<void> {
  await settled(page);
  await page.mouse.move(0, 0);
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((th) => document.documentElement.dataset.theme === th, theme);
    await animationsDone(page);
    await shoot(theme);
  }
}

/** After an e-mail-code sign-in, takes the panel's offer "Sign in faster next time with a passkey" (issue 47). */
export async function takePasskeyOffer(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: 'Sign in faster next time with a passkey' })
    .getByRole('button', { name: 'Add a passkey' })
    .click();
  await expect(page.getByText('Passkey added')).toBeVisible();
}
