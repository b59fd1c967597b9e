/** Entry point: reads config, opens the database (migrations run), seeds demo data, listens, prints the URLs (demo page, panel, door scanner, mail). */
import { join } from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDemo } from './db/seed.js';
import { buildApp } from './app.js';
import { closeGracefully } from './lib/shutdown.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A configuration this service must not run with (e.g. NODE_ENV=production without SMTP_URL): say why, exit 1.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
const database = await openDatabase(config);
if (config.seedDemo) await seedDemo(database.db, new Date());
const app = await buildApp({ config, database, logger: { level: config.logLevel, transport: undefined } });
closeGracefully({ app, database, timeoutSeconds: config.shutdownTimeoutSeconds });
for (const warning of config.warnings) app.log.warn(warning);
await app.listen({ port: config.port, host: config.host });
console.log(
  `\n  Ticket panel is running.\n  Demo host page: ${config.publicUrl}/\n  Panel:          ${config.publicUrl}/en/?PANEL_TAB=LOGIN\n  Door scanner:   ${config.publicUrl}/scanner (key: SCANNER_KEY, else the one in ${join(config.dataDir, 'scanner-key')})\n  ${config.smtpUrl ? `Mail via ${config.smtpUrl}` : config.devOutbox ? `Dev outbox:     ${config.publicUrl}/dev/mail` : 'Mail: console only (no SMTP_URL)'}\n`,
);
