/**
 * The document's first-screen preload (issue 30, decision 023): the plan names the app's chunks, the catalogue of
 * each language and, for a QR start, the later catalogue and the QR screen's chunks, leaving out what the entry
 * already loads; the inline script picks the QR set only for a signed-in (or embedded) start on QR, and on a
 * standalone signed-in QR start asks for the first QR's chunks first, with a high priority, and the rest low.
 */
import { describe, expect, it } from 'vitest';
import { firstScreenPreload } from './first-screen-preload';

const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = [], isEntry = false) => ({
  type: 'chunk' as const,
  fileName,
  facadeModuleId,
  isEntry,
  imports,
});
const bundle = Object.fromEntries(
  [
    chunk('assets/index-1.js', '/src/main.tsx', ['assets/start-1.js'], true),
    chunk('assets/start-1.js', null),
    chunk('assets/start-app-1.js', '/src/app/start-app.tsx', ['assets/core-1.js', 'assets/start-1.js']),
    chunk('assets/core-1.js', null),
    chunk('assets/first-qr-1.js', '/src/features/qr/first-qr.ts', ['assets/draw-qr-1.js', 'assets/start-1.js'], true),
    chunk('assets/draw-qr-1.js', '/src/features/qr/pass/draw-qr.ts', ['assets/start-1.js']),
    chunk('assets/en-1.js', '/src/locales/en.json'),
    chunk('assets/es-1.js', '/src/locales/es.json'),
    chunk('assets/later-en-1.js', '/src/locales/later/later-en.json'),
    chunk('assets/later-es-1.js', '/src/locales/later/later-es.json'),
    chunk('assets/qr-screen-1.js', '/src/features/qr/components/qr-screen.tsx', [
      'assets/core-1.js',
      'assets/use-pass-1.js',
    ]),
    chunk('assets/use-pass-1.js', '/src/features/qr/pass/use-pass.ts', ['assets/draw-qr-1.js']),
    chunk('assets/prefetch-1.js', '/src/features/qr/prefetch.ts', ['assets/use-pass-1.js']),
  ].map((c) => [c.fileName, c]),
);

function inlineScript(): string {
  const plugin = firstScreenPreload();
  const hook = plugin.transformIndexHtml as unknown as {
    handler: (html: string, ctx: { bundle: unknown }) => { children: string }[];
  };
  return hook.handler('<html></html>', { bundle })[0].children;
}

/** Runs the inline script in jsdom at `url` and returns the preloaded hrefs. */
function preloads(url: string, token: string | null): string[] {
  window.history.replaceState(null, '', url);
  if (token) localStorage.setItem('tp.accessToken', token);
  else localStorage.removeItem('tp.accessToken');
  document.head.innerHTML = '';
  // The build's inline script, run as the browser runs it (jsdom runs no inline <script> here).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- the build's inline script, run as the browser would
  new Function(inlineScript())();
  return [...document.head.querySelectorAll('link')].map(
    (l) => `${l.rel} ${l.getAttribute('href')}${l.fetchPriority ? ` ${l.fetchPriority}` : ''}`,
  );
}

const APP = ['modulepreload /assets/start-app-1.js', 'modulepreload /assets/core-1.js'];
/** A QR start without the first QR: the app, its catalogues and the QR screen's chunks, none ahead of the others. */
const QR_CHUNKS_ONLY = [
  ...APP,
  'modulepreload /assets/en-1.js',
  'modulepreload /assets/later-en-1.js',
  'modulepreload /assets/qr-screen-1.js',
  'modulepreload /assets/use-pass-1.js',
  'modulepreload /assets/draw-qr-1.js',
  'modulepreload /assets/prefetch-1.js',
];

describe('first-screen preload', () => {
  it('a signed-out LOGIN preloads the app and its catalogue only', () => {
    expect(preloads('/es/?PANEL_TAB=LOGIN', null)).toEqual([...APP, 'modulepreload /assets/es-1.js']);
  });
  it('a signed-in QR start asks first for the first QR and its texts, then the app, catalogue and QR chunks', () => {
    expect(preloads('/en/?PANEL_TAB=QR', 'token')).toEqual([
      'modulepreload /assets/first-qr-1.js high',
      'modulepreload /assets/draw-qr-1.js high',
      'modulepreload /assets/later-en-1.js high',
      'modulepreload /assets/start-app-1.js low',
      'modulepreload /assets/core-1.js low',
      'modulepreload /assets/en-1.js low',
      'modulepreload /assets/qr-screen-1.js low',
      'modulepreload /assets/use-pass-1.js low',
      'modulepreload /assets/prefetch-1.js low',
    ]);
    expect(preloads('/en/', 'token')).toHaveLength(9);
  });
  it('served by the service worker, a signed-in QR start preloads the first QR only (the rest is local)', () => {
    const controller = Object.getOwnPropertyDescriptor(window.navigator, 'serviceWorker');
    Object.defineProperty(window.navigator, 'serviceWorker', { configurable: true, value: { controller: {} } });
    try {
      expect(preloads('/en/?PANEL_TAB=QR', 'token')).toEqual([
        'modulepreload /assets/first-qr-1.js high',
        'modulepreload /assets/draw-qr-1.js high',
        'modulepreload /assets/later-en-1.js high',
      ]);
      expect(preloads('/en/?PANEL_TAB=LOGIN', null)).toEqual([...APP, 'modulepreload /assets/en-1.js']);
    } finally {
      if (controller) Object.defineProperty(window.navigator, 'serviceWorker', controller);
      else delete (window.navigator as { serviceWorker?: unknown }).serviceWorker;
    }
  });
  it('an embedded QR start preloads the QR chunks but not the first QR (no session known yet)', () => {
    expect(preloads('/en/?PANEL_TAB=QR&embed=modal&mode=modal', null)).toEqual(QR_CHUNKS_ONLY);
  });
  it('a signed-in QR start with the hub open preloads no first QR (the hub is the first screen)', () => {
    expect(preloads('/en/?PANEL_TAB=QR&PANEL_OVERLAY_TAB=HUB', 'token')).toEqual(QR_CHUNKS_ONLY);
  });
  it('another signed-in screen preloads the app and the catalogue only', () => {
    expect(preloads('/en/?PANEL_TAB=MY_TICKET', 'token')).toEqual([...APP, 'modulepreload /assets/en-1.js']);
  });
});
