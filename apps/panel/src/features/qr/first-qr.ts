/**
 * The first QR before the app (issue 30, decision 023). A build entry of its own (vite.config.ts), small and
 * free of React, TanStack Query and i18next, preloaded by the document on a standalone signed-in start on the
 * QR screen (first-screen-preload.ts) and imported by the entry (main.tsx) before the app's code is evaluated:
 *
 * - starts the QR screen's two requests at once (GET /auth/access/qrCodeData and GET /auth/access/qr), which
 *   the entry hands to its query cache instead of asking again (`firstQrRequests`, lib/first-screen.ts);
 * - draws the first QR over the page (`#first-qr`, an `img.qr-box__img` under the later catalogue's `qr.title`
 *   and `qr.alt`): the code of the current time step signed with the stored device pass (decision 010) when
 *   there is one for the signed-in account, else the server's image once both answers are in. A warm, offline
 *   or lie-fi start therefore waits for no network, and a cold one for one round trip after this chunk;
 * - leaves the page to the app when the app's own first screen is drawn (`firstScreenDrawn`: the commit in which
 *   the QR screen shows its code or its message, any other screen, or the 4 s bound).
 *
 * What it never shows: another account's pass (the certificate's user id must be the access token's `sub`), a
 * pass whose certificate has expired (by the clock corrected at issue), a pass before the organiser's
 * `passRevealAt` (issue 21: the last `qrCodeData` the service worker cached, if any, must say `passRevealAt: null`,
 * and the QR screen forgets the stored pass when it is told of a reveal; the server's image is refused then),
 * anything embedded (the session is only known after the refresh cookie is used) or signed out.
 */
import type { QrCodeData } from '@tp/contract';
import { API_BASE } from '../../lib/api-client';
import { embedMode } from '../../lib/host-bridge';
import { PERSONAL_CACHE } from '../../lib/offline-data';
import { firstQrRequests, firstScreenDrawn, startsOnQr, type FirstQrRequests } from '../../lib/first-screen';
import { storage } from '../../lib/storage';
import { deviceCodeFor, loadDevicePass, ownPass, stepAt, tokenUserId } from './pass/device-pass';
import { qrDataUrl } from './pass/draw-qr';

const ELEMENT_ID = 'first-qr';
/** Milliseconds after this module's evaluation after which the app starts even without a first QR. */
const FIRST_QR_WAIT_MS = 1500;
let dismissed = false;

/** The last `qrCodeData` answer the service worker cached (network-first, lib/offline-data), or null. */
async function cachedQrCodeData(): Promise<QrCodeData | null> {
  try {
    const res = await (
      await caches.open(PERSONAL_CACHE)
    ).match(`${API_BASE}/auth/access/qrCodeData`, {
      ignoreVary: true,
    });
    return res ? ((await res.json()) as QrCodeData) : null;
  } catch {
    return null;
  }
}

/**
 * The current step's code drawn from the stored device pass, or null when none may be shown now: no pass, one
 * certified to another account than `userId`, an expired one, or a cached `qrCodeData` saying the pass shows later.
 * @param nowMs device clock, Unix milliseconds.
 */
export async function storedPassSrc(userId: number, nowMs = Date.now()): Promise<string | null> {
  const [stored, data] = await Promise.all([loadDevicePass(), cachedQrCodeData()]);
  const pass = ownPass(stored, userId);
  // No cached answer (the first start the service worker controls): a pass is only certified once revealed, and
  // the QR screen forgets it when it learns of a later reveal.
  if (!pass || (data && data.passRevealAt !== null)) return null;
  if (pass.expiresAtMs <= nowMs + pass.clockOffsetMs) return null;
  return qrDataUrl(await deviceCodeFor(pass, stepAt(pass, nowMs).step));
}

/** The server's image once both answers are in and the pass shows now, else null. */
async function serverSrc(requests: FirstQrRequests): Promise<string | null> {
  const [data, image] = await Promise.all([requests.qrCodeData, requests.qrImage]);
  return data.passRevealAt === null ? `data:image/png;base64,${image}` : null;
}

/** `qr.title` and `qr.alt` of the page's language (the later catalogue, which the document preloads). */
async function texts(): Promise<{ title: string; alt: string }> {
  const catalogue =
    document.documentElement.lang === 'es'
      ? (await import('../../locales/later/later-es.json')).default
      : (await import('../../locales/later/later-en.json')).default;
  return catalogue.qr;
}

/** Puts the first QR over the page; resolves once its image is decoded (at once when it is not drawn). */
async function paint(src: string, kind: 'device' | 'server', text: { title: string; alt: string }): Promise<void> {
  if (dismissed || document.getElementById(ELEMENT_ID)) return;
  const overlay = document.createElement('div');
  overlay.id = ELEMENT_ID;
  overlay.className = 'first-qr';
  const screen = document.createElement('div');
  screen.className = 'qr-screen stack';
  const title = document.createElement('p');
  title.className = 'screen-title';
  title.textContent = text.title;
  const box = document.createElement('div');
  box.className = 'qr-box';
  const img = document.createElement('img');
  img.className = 'qr-box__img';
  img.alt = text.alt;
  img.width = img.height = 396;
  img.dataset.passKind = kind;
  img.src = src;
  box.append(img);
  screen.append(title, box);
  overlay.append(screen);
  document.body.append(overlay);
  await img.decode().catch(() => undefined);
}

/** Removes the first QR (if drawn) and keeps it from being drawn later; the app's screen is on the page now. */
function dismissFirstQr(): void {
  dismissed = true;
  document.getElementById(ELEMENT_ID)?.remove();
}

/** Draws the first QR (see the module comment); never throws. */
async function drawFirstQr(requests: FirstQrRequests, userId: number): Promise<void> {
  try {
    const text = texts().catch(() => null);
    const device = await storedPassSrc(userId).catch(() => null);
    const src = device ?? (await serverSrc(requests));
    const shown = await text;
    // Never a code without its name for a screen reader: no texts, no first QR (the app draws its own).
    if (src && shown) await paint(src, device ? 'device' : 'server', shown);
  } catch {
    /* nothing drawn: the app's screen says what there is */
  }
}

const userId = embedMode === 'standalone' && startsOnQr ? tokenUserId(storage.get('accessToken')) : null;
if (userId !== null) void firstScreenDrawn.then(dismissFirstQr);

/**
 * Settles once the first QR is on screen (its image decoded), or will not be drawn, or `FIRST_QR_WAIT_MS` after
 * this module ran: the entry starts the app then. Only a standalone signed-in start on QR draws one.
 */
export const firstQrShown: Promise<void> =
  userId === null
    ? Promise.resolve()
    : Promise.race([
        drawFirstQr(firstQrRequests(), userId),
        new Promise<void>((resolve) => setTimeout(resolve, FIRST_QR_WAIT_MS)),
      ]);
