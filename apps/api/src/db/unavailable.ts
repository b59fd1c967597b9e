/**
 * Tells a "the database is unreachable right now" error from any other: what a PostgreSQL restart,
 * failover or network cut throws through `pg` and Drizzle, or a statement it cancelled past its time. The error handler answers those with 503
 * `api.service_unavailable` and `Retry-After` instead of 500 (issue 11).
 */

/** Node socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not accepting connections: class 08 (connection exception),
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections; and 57014
 * query_canceled, a statement past DATABASE_STATEMENT_TIMEOUT_SECONDS (or cancelled by an operator): the database
 * could not answer in time.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Messages `pg` throws without a code when a connection ends or cannot be had in time. */
const PG_MESSAGES =
  /^Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Cannot use a pool after calling end/;

/**
 * Why `err`, or an error in its `cause` chain (Drizzle wraps driver errors), means the database is unreachable:
 * the code or driver message that says so (safe to log: no SQL, no parameters), or null for any other error.
 */
export function databaseUnavailableReason(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) {
      return code;
    }
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return message;
    // A failed connect to several addresses (localhost: ::1 and 127.0.0.1) is an AggregateError.
    if (e instanceof AggregateError) {
      const inner = e.errors.map((x) => databaseUnavailableReason(x)).find(Boolean);
      if (inner) return inner;
    }
    e = cause;
  }
  return null;
}
