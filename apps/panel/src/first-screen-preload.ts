/**
 * The document preloads what its first screen needs (issue 30, decision 023): a build plugin (vite.config.ts)
 * writes a small inline script into index.html that, before any module runs, adds `<link rel=modulepreload>`
 * for the language catalogue of the page's path (`/en/` or `/es/`) and, for a start on the QR screen (a stored
 * access token, or the embed's iframe, and `PANEL_TAB` QR or none), the later catalogue, the QR screen's chunks
 * and `features/qr/prefetch` with everything they import that the entry does not. Without it each of those was
 * requested only after the module before it ran: the catalogue after the entry, the screen after the catalogue.
 * The file names come from the bundle, so they follow the content hashes. The same document is served (and
 * precached) for every tab: the choice is made in the browser, from the URL and the storage.
 */
import type { Plugin } from 'vite';

interface Chunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The modules (path suffixes) of a QR start, beside the main catalogue; `{lang}` is en or es. */
const QR_START = [
  '/locales/later/later-{lang}.json',
  '/features/qr/components/qr-screen.tsx',
  '/features/qr/prefetch.ts',
];

/** The app's start (React, TanStack Query, i18next, the router), imported by the entry (main.tsx) on every start. */
const APP = '/app/start-app.tsx';
/**
 * The first QR's own entry (features/qr/first-qr.ts): drawn before the app on a standalone signed-in QR start with
 * no overlay (lib/first-screen.ts `startsOnQr`).
 */
const FIRST_QR = '/features/qr/first-qr.ts';

/**
 * The inline script; `plan` maps `app` to the app's chunks, `en`/`es` and `qr-en`/`qr-es` to file URLs, and
 * `first-qr-en`/`first-qr-es` to the first QR's entry, its imports and its texts (the later catalogue). On a
 * standalone signed-in QR start those go first with a high fetch priority and the rest with a low one: HTTP/1.1
 * gives a page six connections, and the first QR's requests (features/qr/first-qr.ts) must not queue behind the
 * app's code. When the service worker serves the page (a warm, offline or lie-fi start) the rest is not preloaded
 * at all: it comes from the device's cache in a few milliseconds when the app is imported, and compiling 300 kB of
 * it on a slow CPU must not come before the first QR. ES5, no module syntax.
 */
const script = (plan: Record<string, string[]>) =>
  `(function(p){try{var l=location.pathname.split('/')[1]==='es'?'es':'en',q=new URLSearchParams(location.search),` +
  `t=(q.get('PANEL_TAB')||'QR').toUpperCase(),a=localStorage.getItem('tp.accessToken'),` +
  `h=t==='QR'&&a&&!q.get('embed')&&!q.get('PANEL_OVERLAY_TAB')?p['first-qr-'+l]:[],f=p.app.concat(p[l]);` +
  `if(t==='QR'&&(a||q.get('mode')))f=f.concat(p['qr-'+l]);` +
  `function add(u,r){var e=document.createElement('link');if(/\\.css$/.test(u)){e.rel='preload';e.as='style'}` +
  `else e.rel='modulepreload';e.href=u;e.crossOrigin='';if(h.length)e.fetchPriority=r;document.head.appendChild(e)}` +
  `h.forEach(function(u){add(u,'high')});if(h.length&&navigator.serviceWorker&&navigator.serviceWorker.controller)return;` +
  `f.forEach(function(u){if(h.indexOf(u)<0)add(u,'low')})}catch(e){}})(` +
  `${JSON.stringify(plan)})`;

export function firstScreenPreload(): Plugin {
  return {
    name: 'tp:first-screen-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks: Chunk[] = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (chunk: Chunk | undefined, into = new Set<string>()): Set<string> => {
          if (!chunk || into.has(chunk.fileName)) return into;
          into.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
          for (const f of chunk.imports) closure(byFile.get(f), into);
          return into;
        };
        const module = (suffix: string) => {
          const found = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(suffix));
          if (!found) throw new Error(`first-screen preload: no chunk for ${suffix}`);
          return found;
        };
        // The document's entry (main.tsx): what it imports is loaded by its own tags.
        const index = new Set<string>();
        for (const c of chunks.filter((c) => c.isEntry && !c.facadeModuleId?.replace(/\\/g, '/').endsWith(FIRST_QR)))
          closure(c, index);
        const files = (suffixes: string[], not: Set<string>) => {
          const all = new Set<string>();
          for (const s of suffixes) closure(module(s), all);
          return [...all].filter((f) => !not.has(f)).map((f) => `/${f}`);
        };
        const plan: Record<string, string[]> = { app: files([APP], index) };
        const entry = new Set([...index, ...plan.app.map((f) => f.slice(1))]);
        for (const lang of ['en', 'es']) {
          plan[`first-qr-${lang}`] = files([FIRST_QR, `/locales/later/later-${lang}.json`], index);
          plan[lang] = files([`/locales/${lang}.json`], entry);
          const main = new Set([...entry, ...plan[lang].map((f) => f.slice(1))]);
          plan[`qr-${lang}`] = files(
            QR_START.map((s) => s.replace('{lang}', lang)),
            main,
          );
        }
        // First in the head: a script after the stylesheet's link would wait for the stylesheet.
        return [{ tag: 'script', children: script(plan), injectTo: 'head-prepend' }];
      },
    },
  };
}
