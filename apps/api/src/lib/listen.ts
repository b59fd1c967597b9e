/**
 * Why the server could not listen, as the one line `server.ts` prints before exiting 1 (issue 23): a busy port
 * names `PORT` (and `HOST`), not a JSON stack trace.
 */

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
