/**
 * Both API projects' global setups: the server's entry (src/server.ts), the `db:export`/`db:import` script
 * (scripts/db-transfer.ts) and the three modules they start as threads or processes (the PGlite thread, the image
 * decoder, the pass signer, the mail layout compiler, the resale PDFs) bundled once per run into JavaScript, for the tests that start real processes
 * (test/server-process.ts `serverEntry`). Each start through tsx cost about 2 CPU s (tsx's loader and its esbuild
 * service, decision 028 §11); a bundle of this run's source starts as the compiled `dist/server.js` does, and it is
 * built from the source at hand, never a stale `dist/` (issue 42).
 *
 * The bundle goes to `apps/api/.test-server-XXXXXX/` (gitignored): one level under apps/api like `src/` and
 * `scripts/`, so that what the modules find from their own place is what they find from there (config.ts's
 * `apps/api` for `public/`, the panel's dist and `.data`; db-transfer.ts's `.data`), the workers are the `.js`
 * files beside the entry that the compiled code looks for, the migrations are `./migrations` (client.ts), and bare
 * imports resolve in the repository's node_modules. @tp/contract is bundled from its source, as tsx ran it
 * (`--conditions=source`); every other package stays an import.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const apiRoot = resolve(import.meta.dirname, '../..');

/** The bundle's directory (`server.js`, `db-transfer.js` and the workers) and its removal. */
export interface ServerBundle {
  dir: string;
  remove: () => void;
}

/** Bundles the server, the transfer script and their workers into a new `apps/api/.test-server-XXXXXX/`. */
export async function bundleServer(): Promise<ServerBundle> {
  const dir = mkdtempSync(join(apiRoot, '.test-server-'));
  try {
    await build({
      entryPoints: {
        server: join(apiRoot, 'src/server.ts'),
        'db-transfer': join(apiRoot, 'scripts/db-transfer.ts'),
        // The names the compiled modules look for beside themselves (pglite-proxy.ts, image-pool.ts, pass-signer.ts,
        // mjml-compiler.ts, resale.pdf.ts).
        'pglite.worker': join(apiRoot, 'src/db/pglite.worker.ts'),
        'image-decode.worker': join(apiRoot, 'src/providers/images/image-decode.worker.ts'),
        'pass-signing.worker': join(apiRoot, 'src/modules/wallet/pass-signing.worker.ts'),
        'mail-layout.worker': join(apiRoot, 'src/providers/mail/mail-layout.worker.ts'),
        'resale-pdf.worker': join(apiRoot, 'src/modules/resale/resale-pdf.worker.ts'),
      },
      outdir: dir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      conditions: ['source'],
      logLevel: 'warning',
      plugins: [
        {
          name: 'packages-external-but-contract',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@tp/') ? undefined : { external: true }));
          },
        },
      ],
    });
    cpSync(join(apiRoot, 'src/db/migrations'), join(dir, 'migrations'), { recursive: true });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of this run's server bundle (test/setup/server-bundle.ts). */
    serverBundle: string;
  }
}
