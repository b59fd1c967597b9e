/**
 * The document's first-screen preload (issue 30, decision 023): the plan names the catalogue of each language
 * and, for a QR start, the later catalogue and the QR screen's chunks, leaving out what the entry already loads;
 * the inline script picks the QR set only for a signed-in (or embedded) start on QR.
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
    chunk('assets/index-1.js', '/src/main.tsx', ['assets/core-1.js'], true),
    chunk('assets/core-1.js', null),
    chunk('assets/en-1.js', '/src/locales/en.json'),
    chunk('assets/es-1.js', '/src/locales/es.json'),
    chunk('assets/later-en-1.js', '/src/locales/later/later-en.json'),
    chunk('assets/later-es-1.js', '/src/locales/later/later-es.json'),
    chunk('assets/qr-screen-1.js', '/src/features/qr/components/qr-screen.tsx', [
      'assets/core-1.js',
      'assets/use-pass-1.js',
    ]),
    chunk('assets/use-pass-1.js', '/src/features/qr/pass/use-pass.ts'),
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
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call
  new Function(inlineScript())();
  return [...document.head.querySelectorAll('link')].map((l) => `${l.rel} ${l.getAttribute('href')}`);
}

describe('first-screen preload', () => {
  it('a signed-out LOGIN preloads its catalogue only', () => {
    expect(preloads('/es/?PANEL_TAB=LOGIN', null)).toEqual(['modulepreload /assets/es-1.js']);
  });
  it('a signed-in QR start preloads the catalogue, the later catalogue and the QR chunks, not the entry’s', () => {
    expect(preloads('/en/?PANEL_TAB=QR', 'token')).toEqual([
      'modulepreload /assets/en-1.js',
      'modulepreload /assets/later-en-1.js',
      'modulepreload /assets/qr-screen-1.js',
      'modulepreload /assets/use-pass-1.js',
      'modulepreload /assets/prefetch-1.js',
    ]);
    expect(preloads('/en/', 'token')).toHaveLength(5);
  });
  it('another signed-in screen preloads the catalogue only', () => {
    expect(preloads('/en/?PANEL_TAB=MY_TICKET', 'token')).toEqual(['modulepreload /assets/en-1.js']);
  });
});
