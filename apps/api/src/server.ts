/** Entry point: reads config, opens the database (migrations run), seeds demo data, listens, prints the URLs (demo page, panel, console, door scanner, mail). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDemo } from './db/seed.js';
import { buildApp } from './app.js';
import { closeGracefully } from './lib/shutdown.js';
import { listenFailure, startBanner } from './lib/listen.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A configuration this service must not run with (e.g. NODE_ENV=production without SMTP_URL): say why, exit 1.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
const database = await openDatabase(config);
const seeded = config.seedDemo && (await seedDemo(database.db, new Date(), { fetchLogo: true }));
const app = await buildApp({ config, database, logger: { level: config.logLevel, transport: undefined } });
const demoKeyFile = join(config.dataDir, 'demo-org-api-key');
if (seeded) {
  // The demo organisation's API key, shown once like any other: kept in DATA_DIR for the README's examples.
  const key = await app.services.organisations.admin.addKeyBySlug('demo');
  if (key) writeFileSync(demoKeyFile, `${key.apiKey}\n`, { mode: 0o600 });
}
closeGracefully({ app, database, timeoutSeconds: config.shutdownTimeoutSeconds });
for (const warning of config.warnings) app.log.warn(warning);
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  // A busy port (or an address this machine lacks): one line naming PORT or HOST, then exit 1.
  const line = listenFailure(err, config);
  if (!line) throw err;
  console.error(line);
  await app.close();
  await database.close();
  process.exit(1);
}
console.log(startBanner(config));
