/**
 * What `server.ts` prints about listening: why it could not, as the one line printed before exiting 1 (issue 23: a
 * busy port names `PORT` (and `HOST`), not a JSON stack trace), and the start banner with the addresses to open.
 */
import { join } from 'node:path';

/**
 * The one-line explanation of a failed `listen` the person starting the server can act on, or null for an error
 * that is not about the address (the caller rethrows it).
 * @param err what `app.listen` rejected with
 * @param at the configured `port` and `host` (config.ts, from PORT and HOST)
 */
export function listenFailure(err: unknown, at: { port: number; host: string }): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE')
    return `Port ${at.port} on ${at.host} is already in use: stop what is using it, or set PORT to a free port (PORT=${at.port + 1} npm start).`;
  if (code === 'EACCES')
    return `Port ${at.port} on ${at.host} needs privileges this process does not have: set PORT to a port above 1023 (PORT=8080 npm start).`;
  if (code === 'EADDRNOTAVAIL')
    return `Address ${at.host} is not on this machine: set HOST to one of its addresses (HOST=0.0.0.0 for all).`;
  return null;
}

/**
 * The start banner `server.ts` prints once listening: the demo host page, the panel, the organisers' console
 * (issue 41, point 11), the door scanner, the organiser API and where mail goes, with the files in DATA_DIR that hold
 * the generated keys.
 * @param config the `publicUrl`, `dataDir` and mail settings of the running server
 */
export function startBanner(config: {
  publicUrl: string;
  dataDir: string;
  smtpUrl: string | null;
  devOutbox: boolean;
}): string {
  const u = config.publicUrl;
  const file = (name: string) => join(config.dataDir, name);
  const mail = config.smtpUrl
    ? `Mail via ${config.smtpUrl}`
    : config.devOutbox
      ? `Dev outbox:     ${u}/dev/mail`
      : 'Mail: console only (no SMTP_URL)';
  return [
    '',
    '  Ticket panel is running.',
    `  Demo host page: ${u}/`,
    `  Panel:          ${u}/en/?PANEL_TAB=LOGIN`,
    `  Console:        ${u}/console (organisers: sign in with the owner's e-mail, see README "For organisers")`,
    `  Door scanner:   ${u}/scanner (key: SCANNER_KEY, else the one in ${file('scanner-key')})`,
    `  Organiser API:  ${u}/v1/org (demo organisation's key in ${file('demo-org-api-key')}; admin key: ADMIN_KEY, else ${file('admin-key')})`,
    `  ${mail}`,
    '',
  ].join('\n');
}
