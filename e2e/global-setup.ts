/**
 * Checks that the build the specs run is there (npm start's compiled server, the built panel and scanner). Each
 * Playwright worker starts its own SMTP sink and server on that build (e2e/fixtures.ts).
 */
import { existsSync } from 'node:fs';

export default function globalSetup() {
  for (const built of ['apps/api/dist/server.js', 'apps/panel/dist/index.html', 'apps/panel/dist/scanner/index.html']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build before the Playwright specs`);
  }
}
