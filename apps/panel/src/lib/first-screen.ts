/**
 * The signed-in holder's first screen (issue 30, decision 023): what the start does before the QR is drawn,
 * and what waits until it is.
 *
 * - `startsOnQr`: this document opens on the QR screen (signed in, `PANEL_TAB` QR or none; spec section 2
 *   Routing) with no overlay: with `PANEL_OVERLAY_TAB=HUB` (a reload while the hub is open) the hub is what the
 *   holder sees first, and a first QR drawn over it would hide it until the QR screen drew (a phone does not draw
 *   that screen under the hub). Read once at start.
 * - `firstScreenDrawn` resolves when the first QR image has been drawn (`markFirstScreenDrawn`, called by the
 *   QR screen), at once for any other start, and after `FIRST_SCREEN_WAIT_MS` at the latest (a screen that
 *   can draw no QR must not hold the rest back). The side menu, the service worker's registration and the
 *   signed-in effects (app.tsx) wait for it: nothing the QR screen does not show runs before it.
 * - `firstQrRequests`: the QR screen's first two requests, started once by whichever runs first, the first QR
 *   drawn before the app (features/qr/first-qr.ts) or the entry (main.tsx), and shared by both.
 */
import type { QrCodeData } from '@tp/contract';
import { client } from './api-client';
import { resolveRoute } from './routing';
import { storage } from './storage';

/** Milliseconds after which what waits for the first QR goes ahead anyway. */
const FIRST_SCREEN_WAIT_MS = 4000;

/** This document's route at start (null outside a browser). */
const startRoute =
  typeof window === 'undefined'
    ? null
    : resolveRoute(new URLSearchParams(window.location.search), Boolean(storage.get('accessToken'))).route;

export const startsOnQr: boolean = startRoute?.tab === 'QR' && startRoute.overlay === null;

let drawn: () => void = () => undefined;

/** Resolves once the first screen is drawn (see the module comment). */
export const firstScreenDrawn: Promise<void> = new Promise<void>((resolve) => {
  drawn = resolve;
  if (!startsOnQr) resolve();
  else setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
});

/**
 * Called when the first screen is on the page: by the QR screen in the commit that shows its code (or its
 * message when it has none), by the app for any other screen; later calls do nothing.
 */
export function markFirstScreenDrawn(): void {
  drawn();
}

/** The QR screen's first requests (see the module comment). */
export interface FirstQrRequests {
  /** GET /auth/access/qrCodeData. */
  qrCodeData: Promise<QrCodeData>;
  /** GET /auth/access/qr: the server's PNG, base64. */
  qrImage: Promise<string>;
}
let qrRequests: FirstQrRequests | null = null;

/**
 * Starts the QR screen's first requests, once per document: later calls return the same promises (the query
 * cache takes them, features/qr/api polls afterwards). Rejections are the callers' to handle (ApiError).
 */
export function firstQrRequests(): FirstQrRequests {
  return (qrRequests ??= {
    qrCodeData: client.GET('/v1/auth/access/qrCodeData'),
    qrImage: client.GET('/v1/auth/access/qr', { parseAs: 'text' }),
  });
}
